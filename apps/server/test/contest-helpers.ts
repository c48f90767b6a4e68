import { eq } from 'drizzle-orm';
import { DICTIONARY_SEED, type TeamFormInput } from '@contest/shared';
import { dictItems, dictTypes, settings } from '../src/db/schema.js';
import { createAuthRepository } from '../src/modules/auth/auth.repository.js';
import { createPermissionService } from '../src/modules/auth/permission.service.js';
import { createSessionService } from '../src/modules/auth/session.service.js';
import { registerContest } from '../src/modules/contest/contest.module.js';
import { api } from './admin-helpers.js';
import { multipart, fakeFile } from './files-helpers.js';
import type { TestApp } from './helpers.js';
import type { SignedIn } from './sign-in.js';

/**
 * Makes sure the contest calls exist on the test app: registers the module unless app.ts
 * already does, so these tests pass before and after it is wired in.
 */
export async function withContest(t: TestApp): Promise<void> {
  if (t.app.hasRoute({ method: 'GET', url: '/api/contest/public' })) return;
  const db = t.database.db;
  const identity = { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) };
  await t.app.register(async (scope) => registerContest(scope, t.app.deps, identity), { prefix: '/api' });
  await t.app.ready();
}

/** The dictionary as the seed installs it (the test database is not seeded). */
export async function seedDictionary(t: TestApp): Promise<void> {
  const db = t.database.db;
  await db.insert(dictTypes).values(DICTIONARY_SEED.map((type, sort) => ({ code: type.code, name: type.name, sort }))).onConflictDoNothing();
  await db
    .insert(dictItems)
    .values(DICTIONARY_SEED.flatMap((type) => type.items.map((item, sort) => ({ typeCode: type.code, code: item.code, name: item.name, sort }))))
    .onConflictDoNothing();
}

export async function setSetting(t: TestApp, key: string, value: unknown): Promise<void> {
  if (value === undefined) {
    await t.database.db.delete(settings).where(eq(settings.key, key));
    return;
  }
  await t.database.db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}

const DAY = 86_400_000;
/** A window around now (open), or one that ended yesterday (closed). */
export const openWindow = () => ({ start: new Date(Date.now() - DAY).toISOString(), end: new Date(Date.now() + DAY).toISOString() });
export const endedWindow = () => ({ start: new Date(Date.now() - 3 * DAY).toISOString(), end: new Date(Date.now() - DAY).toISOString() });
export const futureWindow = () => ({ start: new Date(Date.now() + DAY).toISOString(), end: new Date(Date.now() + 3 * DAY).toISOString() });

/** Uploads one file as `who`; answers its uniqueNo. */
export async function upload(t: TestApp, who: SignedIn, origin: string, name: string, content: Buffer): Promise<string> {
  const body = multipart({ origin, name }, { name, content });
  const res = await t.app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload: body.payload, headers: { ...body.headers, ...who.headers } });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
  return res.json().data.uniqueNo as string;
}

/** A small valid PDF whose pages hold the given lines of Latin text (Helvetica). */
export function makePdf(pages: string[][]): Buffer {
  const objs: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  objs.push(`<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  objs.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((lines, i) => {
    const content = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `(${l.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj T*`).join(' ')} ET`;
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objs.push(`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export const member = { name: '李华', organization: '示例医院', title: 'INTERMEDIATE', phone: '13800000002', email: 'li@example.com', role: 'DEVELOPER' };

/** A complete sign-up with the participant's own TEAM uploads. */
/** A valid sign-up form around two already-uploaded files (a server over HTTP uploads its own). */
export function teamFormFields(certificate: string, commitment: string, overrides: Partial<TeamFormInput> = {}): TeamFormInput {
  return {
    orgName: '示例科技有限公司',
    orgType: 'ENTERPRISE',
    creditCode: '91350100M000100Y43',
    region: 'P01',
    city: '北京',
    track: 'SMART_SUPERVISION',
    teamName: `智审先锋队${Math.random().toString(36).slice(2, 6)}`,
    leader: { name: '张明', phone: '13800000001', email: 'zhang@example.com', title: 'SENIOR' },
    members: [member],
    advisor: null,
    certificate,
    commitment,
    recommendation: null,
    ...overrides,
  };
}

export async function completeTeam(t: TestApp, who: SignedIn, overrides: Partial<TeamFormInput> = {}): Promise<TeamFormInput> {
  const certificate = await upload(t, who, 'TEAM', '营业执照.pdf', fakeFile.pdf(2000));
  const commitment = await upload(t, who, 'TEAM', '承诺书.pdf', fakeFile.pdf(2000));
  return teamFormFields(certificate, commitment, overrides);
}

export { api };
