import {
  ADMIN_MSG,
  DICTIONARY_SEED,
  DICT_MODULES,
  type DictItem,
  type DictItemCreateInput,
  type DictItemUpdateInput,
  type DictLabels,
  type DictModule,
  type DictOptions,
  type DictType,
  type DictTypeCreateInput,
  type DictTypeUpdateInput,
  type Locale,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { DictItemRow, DictionaryRepository } from './dictionary.repository.js';
import { localName } from './request-locale.js';

const SEEDED_TYPES: ReadonlySet<string> = new Set(DICTIONARY_SEED.map((t) => t.code));

const toItem = (r: DictItemRow): DictItem => ({
  id: r.id,
  typeCode: r.typeCode,
  code: r.code,
  name: r.name,
  nameEn: r.nameEn || null,
  sort: r.sort,
  enabled: r.enabled,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const onOff = (enabled: boolean) => (enabled ? '启用' : '禁用');
const shown = (nameEn: string | null | undefined) => nameEn || '（无）';

/**
 * The English name after an edit. Absent: unchanged (callers written before it existed). Emptied:
 * '' when there was one, so the start-up seed (which fills only NULL) never brings back a name an
 * admin removed; a name never set stays NULL.
 */
const nextNameEn = (before: string | null, input: string | undefined): string | null =>
  input === undefined ? before : input || (before === null ? null : '');

interface Deps {
  db: Db;
  repo: DictionaryRepository;
  now?: () => Date;
}

/**
 * The data dictionary (docs/rules/admin.md, "Data dictionary"). Codes never change once created and items are never
 * deleted, only disabled: records store item codes, and a disabled item must still show its
 * name on them (/dic/label), while selects (/dic/public, /dic/module) offer enabled items only.
 */
export function createDictionaryService({ db, repo, now = () => new Date() }: Deps) {
  async function listTypes(tx: Db = db): Promise<DictType[]> {
    return (await repo.typesWithCounts(tx)).map((row) => ({
      code: row.code,
      name: row.name,
      nameEn: row.nameEn || null,
      sort: row.sort,
      itemCount: Number(row.itemCount),
      builtin: SEEDED_TYPES.has(row.code),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  async function typeView(code: string): Promise<DictType> {
    const type = (await listTypes()).find((t) => t.code === code);
    if (!type) throw notFound(ADMIN_MSG.dictTypeNotFound);
    return type;
  }

  /** Names in `locale`: English where an item has one, else Chinese. */
  async function options(types: string[] | undefined, locale: Locale = 'zh-cn'): Promise<DictOptions> {
    const out: DictOptions = {};
    for (const t of types ?? (await repo.typeCodes())) out[t] = [];
    for (const item of await repo.items(types, true)) (out[item.typeCode] ??= []).push({ code: item.code, name: localName(locale, item) });
    return out;
  }

  return {
    options,

    moduleOptions: (module: DictModule, locale: Locale = 'zh-cn') => options([...DICT_MODULES[module]], locale),

    async labels(types: string[] | undefined, locale: Locale = 'zh-cn'): Promise<DictLabels> {
      const out: DictLabels = {};
      for (const t of types ?? (await repo.typeCodes())) out[t] = {};
      for (const item of await repo.items(types, false)) (out[item.typeCode] ??= {})[item.code] = localName(locale, item);
      return out;
    },

    listTypes: () => listTypes(),

    async createType(actor: OperationActor, input: DictTypeCreateInput): Promise<DictType> {
      await db.transaction(async (tx) => {
        if (await repo.findType(input.code, tx)) throw badRequest(ADMIN_MSG.dictTypeTaken, { field: 'code' });
        const at = now();
        await repo.insertType({ code: input.code, name: input.name, nameEn: input.nameEn || null, sort: input.sort, createdAt: at, updatedAt: at }, tx);
        await recordOperation(tx, actor, {
          action: 'dict:type-create',
          targetType: 'dict_type',
          targetId: input.code,
          summary: `新增字典类型 ${input.code}（${input.name}${input.nameEn ? ` / ${input.nameEn}` : ''}）`,
        });
      });
      return typeView(input.code);
    },

    async updateType(actor: OperationActor, code: string, input: DictTypeUpdateInput): Promise<DictType> {
      await db.transaction(async (tx) => {
        const type = await repo.lockType(code, tx);
        if (!type) throw notFound(ADMIN_MSG.dictTypeNotFound);
        const nameEn = nextNameEn(type.nameEn, input.nameEn);
        await repo.updateType(code, { name: input.name, nameEn, sort: input.sort, updatedAt: now() }, tx);
        const enChange = (nameEn || null) !== (type.nameEn || null) ? `，英文名称 ${shown(type.nameEn)} -> ${shown(nameEn)}` : '';
        await recordOperation(tx, actor, {
          action: 'dict:type-edit',
          targetType: 'dict_type',
          targetId: code,
          summary: `编辑字典类型 ${code}：名称 ${type.name} -> ${input.name}${enChange}，排序 ${type.sort} -> ${input.sort}`,
        });
      });
      return typeView(code);
    },

    async deleteType(actor: OperationActor, code: string): Promise<void> {
      await db.transaction(async (tx) => {
        const type = await repo.lockType(code, tx);
        if (!type) throw notFound(ADMIN_MSG.dictTypeNotFound);
        if (SEEDED_TYPES.has(code)) throw badRequest(ADMIN_MSG.dictTypeBuiltin);
        if ((await repo.countItems(code, tx)) > 0) throw badRequest(ADMIN_MSG.dictTypeNotEmpty);
        await repo.deleteType(code, tx);
        await recordOperation(tx, actor, { action: 'dict:type-delete', targetType: 'dict_type', targetId: code, summary: `删除字典类型 ${code}（${type.name}）` });
      });
    },

    async listItems(typeCode: string): Promise<DictItem[]> {
      if (!(await repo.findType(typeCode))) throw notFound(ADMIN_MSG.dictTypeNotFound);
      return (await repo.itemsOfType(typeCode)).map(toItem);
    },

    async createItem(actor: OperationActor, input: DictItemCreateInput): Promise<DictItem> {
      return db.transaction(async (tx) => {
        // Locking the type serialises item creation per type, so the duplicate check holds.
        if (!(await repo.lockType(input.typeCode, tx))) throw notFound(ADMIN_MSG.dictTypeNotFound);
        if (await repo.findItemByCode(input.typeCode, input.code, tx)) throw badRequest(ADMIN_MSG.dictItemTaken, { field: 'code' });
        const at = now();
        const row = await repo.insertItem(
          { typeCode: input.typeCode, code: input.code, name: input.name, nameEn: input.nameEn || null, sort: input.sort, enabled: input.enabled, createdAt: at, updatedAt: at },
          tx,
        );
        await recordOperation(tx, actor, {
          action: 'dict:item-create',
          targetType: 'dict_item',
          targetId: row.id,
          summary: `新增字典项 ${input.typeCode}/${input.code}（${input.name}${input.nameEn ? ` / ${input.nameEn}` : ''}），${onOff(input.enabled)}`,
        });
        return toItem(row);
      });
    },

    async updateItem(actor: OperationActor, id: string, input: DictItemUpdateInput): Promise<DictItem> {
      return db.transaction(async (tx) => {
        const item = await repo.lockItem(id, tx);
        if (!item) throw notFound(ADMIN_MSG.dictItemNotFound);
        const nameEn = nextNameEn(item.nameEn, input.nameEn);
        const row = await repo.updateItem(id, { name: input.name, nameEn, sort: input.sort, enabled: input.enabled, updatedAt: now() }, tx);
        const changes = [
          item.name !== input.name ? `名称 ${item.name} -> ${input.name}` : '',
          (item.nameEn || null) !== (nameEn || null) ? `英文名称 ${shown(item.nameEn)} -> ${shown(nameEn)}` : '',
          item.sort !== input.sort ? `排序 ${item.sort} -> ${input.sort}` : '',
          item.enabled !== input.enabled ? `状态 ${onOff(item.enabled)} -> ${onOff(input.enabled)}` : '',
        ].filter(Boolean);
        await recordOperation(tx, actor, {
          action: 'dict:item-edit',
          targetType: 'dict_item',
          targetId: id,
          summary: `编辑字典项 ${item.typeCode}/${item.code}：${changes.join('；') || '无变化'}`,
        });
        return toItem(row);
      });
    },
  };
}
export type DictionaryService = ReturnType<typeof createDictionaryService>;
