import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { DICTIONARY_SEED, DICT_MODULES, DICT_MSG } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { api, operationsBy } from '../../../test/admin-helpers.js';
import { dictItems, dictTypes } from '../../db/schema.js';
import { seedAtStartup } from '../../startup.js';
import { fillDictionaryEnglishNames } from '../../seed/seed.js';
import { acceptedLanguages } from './request-locale.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
});

afterAll(async () => {
  await t.close();
});

let seq = 0;
const typeCode = () => `T_${Date.now().toString(36).toUpperCase().slice(-4)}${seq++}`;

describe('public dictionary reads', () => {
  it('/dic/public serves enabled items of the asked types, in order, without login', async () => {
    const res = await api(t, 'GET', '/api/dic/public?types=ORG_TYPE,TRACK,NO_SUCH');
    expect(res.statusCode).toBe(200);
    const orgType = DICTIONARY_SEED.find((d) => d.code === 'ORG_TYPE')!;
    expect(res.body.data.ORG_TYPE).toEqual(orgType.items.map(({ code, name }) => ({ code, name })));
    expect(res.body.data.TRACK).toHaveLength(DICTIONARY_SEED.find((d) => d.code === 'TRACK')!.items.length);
    expect(res.body.data.NO_SUCH).toEqual([]);
    expect(Object.keys(res.body.data).sort()).toEqual(['NO_SUCH', 'ORG_TYPE', 'TRACK']);
    const all = await api(t, 'GET', '/api/dic/public');
    for (const d of DICTIONARY_SEED) expect(all.body.data[d.code]).toBeDefined();
    const repeated = await api(t, 'GET', '/api/dic/public?types=ORG_TYPE&types=TRACK');
    expect(Object.keys(repeated.body.data).sort()).toEqual(['ORG_TYPE', 'TRACK']);
    const tooMany = await api(t, 'GET', `/api/dic/public?types=${Array.from({ length: 21 }, (_, i) => `T${i}`).join(',')}`);
    expect(tooMany.body).toMatchObject({ status: 400, message: '一次最多查询 20 个字典类型' });
  });

  it('/dic/module serves the types of one form; /dic/label resolves every code', async () => {
    const res = await api(t, 'GET', '/api/dic/module?module=TEAM');
    expect(Object.keys(res.body.data).sort()).toEqual([...DICT_MODULES.TEAM].sort());
    expect((await api(t, 'GET', '/api/dic/module?module=NOPE')).body).toMatchObject({ status: 400, message: '模块不正确' });
    expect((await api(t, 'GET', '/api/dic/module')).body).toMatchObject({ status: 400, message: '模块不正确' });
    const labels = await api(t, 'GET', '/api/dic/label?types=ORG_TYPE');
    expect(labels.body.data).toEqual({ ORG_TYPE: Object.fromEntries(DICTIONARY_SEED[0]!.items.map((i) => [i.code, i.name])) });
  });
});

describe('English names', () => {
  const orgType = DICTIONARY_SEED.find((d) => d.code === 'ORG_TYPE')!;
  const chinese = orgType.items.map(({ code, name }) => ({ code, name }));
  const english = orgType.items.map(({ code, nameEn }) => ({ code, name: nameEn }));

  it('every seeded type and item has an English name, stored by the seed', async () => {
    for (const type of DICTIONARY_SEED) {
      expect(type.nameEn.trim(), type.code).not.toBe('');
      for (const item of type.items) expect(item.nameEn.trim(), `${type.code}/${item.code}`).not.toBe('');
    }
    expect(await t.database.db.select().from(dictItems).where(isNull(dictItems.nameEn))).toEqual([]);
    const [region] = await t.database.db.select().from(dictTypes).where(eq(dictTypes.code, 'REGION'));
    expect(region!.nameEn).toBe('Region');
  });

  it('/dic/public, /dic/module and /dic/label answer English for lang=en or Accept-Language, Chinese otherwise', async () => {
    const en = { 'accept-language': 'en-US,en;q=0.9' };
    expect((await api(t, 'GET', '/api/dic/public?types=ORG_TYPE&lang=en')).body.data.ORG_TYPE).toEqual(english);
    expect((await api(t, 'GET', '/api/dic/public?types=ORG_TYPE', { headers: en })).body.data.ORG_TYPE).toEqual(english);
    // The page's language (lang) wins over the browser's.
    expect((await api(t, 'GET', '/api/dic/public?types=ORG_TYPE&lang=zh-cn', { headers: en })).body.data.ORG_TYPE).toEqual(chinese);
    expect((await api(t, 'GET', '/api/dic/public?types=ORG_TYPE', { headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' } })).body.data.ORG_TYPE).toEqual(chinese);
    expect((await api(t, 'GET', '/api/dic/public?types=ORG_TYPE')).body.data.ORG_TYPE).toEqual(chinese);
    // An unknown lang is no refusal: the header decides.
    expect((await api(t, 'GET', '/api/dic/public?types=ORG_TYPE&lang=fr', { headers: en })).body.data.ORG_TYPE).toEqual(english);

    const module = await api(t, 'GET', '/api/dic/module?module=FEEDBACK&lang=en');
    expect(module.headers.vary).toContain('Accept-Language');
    const feedbackType = DICTIONARY_SEED.find((d) => d.code === 'FEEDBACK_TYPE')!;
    expect(module.body.data.FEEDBACK_TYPE).toEqual(feedbackType.items.map(({ code, nameEn }) => ({ code, name: nameEn })));
    const labels = await api(t, 'GET', '/api/dic/label?types=ORG_TYPE,TRACK&lang=en');
    expect(labels.body.data.ORG_TYPE).toEqual(Object.fromEntries(orgType.items.map((i) => [i.code, i.nameEn])));
    expect(labels.body.data.TRACK.PAYMENT_REFORM).toBe('Payment method reform');
    expect((await api(t, 'GET', '/api/dic/label?types=TRACK&lang=zh-cn')).body.data.TRACK.PAYMENT_REFORM).toBe('支付方式改革');
  });

  it('falls back to the Chinese name where an item has no English one (never set or removed)', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    const code = typeCode();
    await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body: { code, name: '回退', nameEn: 'Fallback' } });
    const a = await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'A', name: '甲', nameEn: 'Alpha', sort: 1 } });
    await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'B', name: '乙', sort: 2 } });
    expect((await api(t, 'GET', `/api/dic/public?types=${code}&lang=en`)).body.data[code]).toEqual([{ code: 'A', name: 'Alpha' }, { code: 'B', name: '乙' }]);
    await api(t, 'PUT', `/api/admin/dic/item/${a.body.data.id}`, { headers: editor.headers, body: { name: '甲', nameEn: '', sort: 1, enabled: false } });
    expect((await api(t, 'GET', `/api/dic/label?types=${code}&lang=en`)).body.data[code]).toEqual({ A: '甲', B: '乙' });
    expect((await api(t, 'GET', `/api/dic/public?types=${code}&lang=en`)).body.data[code]).toEqual([{ code: 'B', name: '乙' }]);
  });

  it('admin calls take and answer nameEn (trimmed, at most 100, absent = unchanged, empty = removed)', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    const code = typeCode();
    const type = await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body: { code, name: '英文', nameEn: '  English  ' } });
    expect(type.body.data).toMatchObject({ code, name: '英文', nameEn: 'English' });
    const bare = await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'N', name: '无' } });
    expect(bare.body.data.nameEn).toBeNull();
    const item = await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'X', name: '项', nameEn: 'Item' } });
    expect(item.body.data).toMatchObject({ code: 'X', name: '项', nameEn: 'Item' });
    const id = item.body.data.id as string;

    const kept = await api(t, 'PUT', `/api/admin/dic/item/${id}`, { headers: editor.headers, body: { name: '项目', sort: 3, enabled: true } });
    expect(kept.body.data).toMatchObject({ name: '项目', nameEn: 'Item', sort: 3 });
    const changed = await api(t, 'PUT', `/api/admin/dic/item/${id}`, { headers: editor.headers, body: { name: '项目', nameEn: 'Project', sort: 3, enabled: true } });
    expect(changed.body.data.nameEn).toBe('Project');
    expect((await api(t, 'GET', `/api/admin/dic/item?typeCode=${code}`, { headers: editor.headers })).body.data.find((i: { id: string }) => i.id === id).nameEn).toBe('Project');
    const cleared = await api(t, 'PUT', `/api/admin/dic/item/${id}`, { headers: editor.headers, body: { name: '项目', nameEn: null, sort: 3, enabled: true } });
    expect(cleared.body.data.nameEn).toBeNull();
    const [row] = await t.database.db.select().from(dictItems).where(eq(dictItems.id, id));
    expect(row!.nameEn).toBe('');

    const typeEdit = await api(t, 'PUT', `/api/admin/dic/type/${code}`, { headers: editor.headers, body: { name: '英文', nameEn: 'English names', sort: 1 } });
    expect(typeEdit.body.data).toMatchObject({ nameEn: 'English names' });
    expect((await api(t, 'GET', '/api/admin/dic/type', { headers: editor.headers })).body.data.find((d: { code: string }) => d.code === code).nameEn).toBe('English names');
    const [typeEditOp, ...rest] = await operationsBy(t, editor.accountId);
    expect(typeEditOp!.summary).toContain('英文名称 English -> English names');
    expect(rest[0]!.summary).toContain('英文名称 Project -> （无）');

    const long = 'x'.repeat(101);
    const refusals = [
      await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body: { code: typeCode(), name: 'x', nameEn: long } }),
      await api(t, 'PUT', `/api/admin/dic/type/${code}`, { headers: editor.headers, body: { name: 'x', nameEn: long } }),
      await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'Y', name: 'y', nameEn: long } }),
      await api(t, 'PUT', `/api/admin/dic/item/${id}`, { headers: editor.headers, body: { name: 'x', nameEn: long, sort: 1, enabled: true } }),
      await api(t, 'PUT', `/api/admin/dic/item/${id}`, { headers: editor.headers, body: { name: 'x', nameEn: 5, sort: 1, enabled: true } }),
    ];
    for (const res of refusals) expect(res.body).toMatchObject({ status: 400, message: DICT_MSG.dictNameEnTooLong });
    expect((await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'Z', name: 'z', nameEn: 'x'.repeat(100) } })).statusCode).toBe(200);
    const [after] = await t.database.db.select().from(dictItems).where(eq(dictItems.id, id));
    expect(after).toMatchObject({ name: '项目', nameEn: '' });
    expect(await t.database.db.select().from(dictItems).where(and(eq(dictItems.typeCode, code), eq(dictItems.code, 'Y')))).toHaveLength(0);
  });

  it('the seed fills missing English names, keeps renamed and admin-set ones, and is idempotent', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    const at = (typeCode: string, code: string) => and(eq(dictItems.typeCode, typeCode), eq(dictItems.code, code));
    const db = t.database.db;
    // As a database seeded before English names existed: NULL everywhere.
    await db.update(dictItems).set({ nameEn: null }).where(eq(dictItems.typeCode, 'MEMBER_ROLE'));
    await db.update(dictTypes).set({ nameEn: null }).where(eq(dictTypes.code, 'MEMBER_ROLE'));
    // An admin renamed one item (its meaning may have changed) and translated another differently.
    await db.update(dictItems).set({ name: '技术研发' }).where(at('MEMBER_ROLE', 'DEVELOPER'));
    const [product] = await db.select().from(dictItems).where(at('MEMBER_ROLE', 'PRODUCT'));
    await api(t, 'PUT', `/api/admin/dic/item/${product!.id}`, { headers: editor.headers, body: { name: '产品', nameEn: 'Product design', sort: 2, enabled: true } });
    const [before] = await db.select().from(dictItems).where(at('MEMBER_ROLE', 'LEADER'));

    await seedAtStartup(t.app, false);
    const role = DICTIONARY_SEED.find((d) => d.code === 'MEMBER_ROLE')!;
    const rows = await db.select().from(dictItems).where(eq(dictItems.typeCode, 'MEMBER_ROLE'));
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(byCode.get('LEADER')!.nameEn).toBe('Team leader');
    expect(byCode.get('DEVELOPER')).toMatchObject({ name: '技术研发', nameEn: null });
    expect(byCode.get('PRODUCT')!.nameEn).toBe('Product design');
    for (const item of role.items.filter((i) => !['DEVELOPER', 'PRODUCT'].includes(i.code))) expect(byCode.get(item.code)!.nameEn).toBe(item.nameEn);
    expect(byCode.get('LEADER')!.updatedAt).toEqual(before!.updatedAt);
    expect((await db.select().from(dictTypes).where(eq(dictTypes.code, 'MEMBER_ROLE')))[0]!.nameEn).toBe('Team role');

    const snapshot = await db.select().from(dictItems);
    await fillDictionaryEnglishNames(db);
    await seedAtStartup(t.app, false);
    expect(await db.select().from(dictItems)).toEqual(snapshot);
    await db.update(dictItems).set({ name: '研发' }).where(at('MEMBER_ROLE', 'DEVELOPER'));
  });

  it('reads Accept-Language by weight', () => {
    expect(acceptedLanguages('fr;q=0.9, en-GB;q=0.8, zh-CN;q=0.95')).toEqual(['zh-CN', 'fr', 'en-GB']);
    expect(acceptedLanguages('zh;q=0, en')).toEqual(['en']);
    expect(acceptedLanguages('*')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('dictionary administration', () => {
  it('creates a type and items, edits them; a disabled item leaves selects but keeps its label', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    const code = typeCode();
    const type = await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body: { code, name: '测试类型', sort: 50 } });
    expect(type.body).toMatchObject({ status: 200, data: { code, name: '测试类型', sort: 50, itemCount: 0, builtin: false } });
    const a = await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'A', name: '甲', sort: 2 } });
    const b = await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'B', name: '乙', sort: 1 } });
    expect(b.body.data).toMatchObject({ code: 'B' });
    expect(a.body.data).toMatchObject({ typeCode: code, code: 'A', name: '甲', enabled: true });
    expect((await api(t, 'GET', `/api/dic/public?types=${code}`)).body.data[code]).toEqual([{ code: 'B', name: '乙' }, { code: 'A', name: '甲' }]);

    const off = await api(t, 'PUT', `/api/admin/dic/item/${a.body.data.id}`, { headers: editor.headers, body: { name: '甲改', sort: 2, enabled: false } });
    expect(off.body.data).toMatchObject({ name: '甲改', enabled: false, code: 'A' });
    expect((await api(t, 'GET', `/api/dic/public?types=${code}`)).body.data[code]).toEqual([{ code: 'B', name: '乙' }]);
    expect((await api(t, 'GET', `/api/dic/label?types=${code}`)).body.data[code]).toEqual({ A: '甲改', B: '乙' });
    const adminList = await api(t, 'GET', `/api/admin/dic/item?typeCode=${code}`, { headers: editor.headers });
    expect(adminList.body.data.map((i: { code: string }) => i.code)).toEqual(['B', 'A']);

    const renamed = await api(t, 'PUT', `/api/admin/dic/type/${code}`, { headers: editor.headers, body: { name: '改名类型', sort: 3 } });
    expect(renamed.body.data).toMatchObject({ name: '改名类型', sort: 3, itemCount: 2 });

    const ops = (await operationsBy(t, editor.accountId)).map((o) => o.action);
    expect(ops).toEqual(['dict:type-edit', 'dict:item-edit', 'dict:item-create', 'dict:item-create', 'dict:type-create']);
    const [, itemEdit] = await operationsBy(t, editor.accountId);
    expect(itemEdit!.summary).toContain('状态 启用 -> 禁用');
  });

  it('refuses bad input, duplicates and unknown targets, writing nothing', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    const code = typeCode();
    const badTypes: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x' }, '请输入字典类型编码'],
      [{ code: 'bad code', name: 'x' }, '字典类型编码只能包含大写字母、数字和下划线，以字母开头，2-40 位'],
      [{ code }, '请输入字典类型名称'],
      [{ code, name: 'x', sort: -1 }, '排序应为 0-9999 之间的整数'],
      [{ code: 'ORG_TYPE', name: 'x' }, '该字典类型编码已存在'],
    ];
    for (const [body, message] of badTypes) {
      expect((await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body })).body, JSON.stringify(body)).toMatchObject({ status: 400, message });
    }
    const badItems: Array<[Record<string, unknown>, number, string]> = [
      [{ code: 'A', name: 'x' }, 400, '请输入字典类型编码'],
      [{ typeCode: 'ORG_TYPE', code: 'a b', name: 'x' }, 400, '字典项编码只能包含字母、数字、下划线和短横线，1-40 位'],
      [{ typeCode: 'ORG_TYPE', code: 'NEW', name: '' }, 400, '请输入字典项名称'],
      [{ typeCode: 'ORG_TYPE', code: 'NEW', name: 'x', enabled: 'yes' }, 400, '状态只能是 true 或 false'],
      [{ typeCode: 'ORG_TYPE', code: 'ENTERPRISE', name: 'x' }, 400, '该字典类型下已存在相同编码的字典项'],
      [{ typeCode: 'NO_SUCH', code: 'X', name: 'x' }, 404, '字典类型不存在'],
    ];
    for (const [body, status, message] of badItems) {
      expect((await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body })).body, JSON.stringify(body)).toMatchObject({ status, message });
    }
    expect((await api(t, 'PUT', '/api/admin/dic/item/00000000-0000-4000-8000-000000000000', { headers: editor.headers, body: { name: 'x', sort: 1, enabled: true } })).statusCode).toBe(404);
    expect((await api(t, 'PUT', '/api/admin/dic/type/NO_SUCH', { headers: editor.headers, body: { name: 'x' } })).statusCode).toBe(404);
    expect((await api(t, 'GET', '/api/admin/dic/item?typeCode=NO_SUCH', { headers: editor.headers })).statusCode).toBe(404);
    expect(await t.database.db.select().from(dictTypes).where(eq(dictTypes.code, code))).toHaveLength(0);
    expect(await t.database.db.select().from(dictItems).where(eq(dictItems.code, 'NEW'))).toHaveLength(0);
    expect(await operationsBy(t, editor.accountId)).toHaveLength(0);
  });

  it('deletes only empty, non-seeded types', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    expect((await api(t, 'DELETE', '/api/admin/dic/type/ORG_TYPE', { headers: editor.headers })).body).toMatchObject({ status: 400, message: '系统内置的字典类型不能删除' });
    const code = typeCode();
    await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body: { code, name: '待删' } });
    await api(t, 'POST', '/api/admin/dic/item', { headers: editor.headers, body: { typeCode: code, code: 'X', name: 'x' } });
    expect((await api(t, 'DELETE', `/api/admin/dic/type/${code}`, { headers: editor.headers })).body).toMatchObject({ status: 400, message: '字典类型下仍有字典项，不能删除' });
    const empty = typeCode();
    await api(t, 'POST', '/api/admin/dic/type', { headers: editor.headers, body: { code: empty, name: '空' } });
    expect((await api(t, 'DELETE', `/api/admin/dic/type/${empty}`, { headers: editor.headers })).body).toMatchObject({ status: 200, message: '删除成功' });
    expect(await t.database.db.select().from(dictTypes).where(eq(dictTypes.code, empty))).toHaveLength(0);
    expect((await operationsBy(t, editor.accountId))[0]).toMatchObject({ action: 'dict:type-delete', targetId: empty });
  });

  it('reading needs the dataField menu, writing dict:edit, admins only', async () => {
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    expect((await api(t, 'GET', '/api/admin/dic/type', { headers: other.headers })).statusCode).toBe(403);
    expect((await api(t, 'POST', '/api/admin/dic/type', { headers: other.headers, body: { code: typeCode(), name: 'x' } })).statusCode).toBe(403);
    const superAdmin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const types = await api(t, 'GET', '/api/admin/dic/type', { headers: superAdmin.headers });
    expect(types.body.data.find((d: { code: string }) => d.code === 'ORG_TYPE')).toMatchObject({ builtin: true, itemCount: 5 });
    const participant = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'GET', '/api/admin/dic/type', { headers: participant.headers })).statusCode).toBe(401);
    expect((await api(t, 'PUT', '/api/admin/dic/type/ORG_TYPE', { body: { name: 'x' } })).statusCode).toBe(401);
  });
});
