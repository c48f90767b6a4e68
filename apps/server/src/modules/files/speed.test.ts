import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { SPEED_MAX_BYTES, SPEED_MSG } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { filesUnder } from '../../../test/files-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { attachments, operationRecords } from '../../db/schema.js';
import { createAuthRepository } from '../auth/auth.repository.js';
import { createPermissionService } from '../auth/permission.service.js';
import { createSessionService } from '../auth/session.service.js';
import { registerFiles } from './files.module.js';

let t: TestApp;
let participant: SignedIn;
let admin: SignedIn;
let expert: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  const db = t.database.db;
  await t.app.register(
    async (api) => {
      await registerFiles(api, t.app.deps, { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) });
    },
    { prefix: '/api' },
  );
  participant = await signIn(t, { realm: 'USER' });
  admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
  expert = await signIn(t, { realm: 'EXPERT' });
});

afterAll(async () => {
  await t.close();
});

const OCTET = { 'content-type': 'application/octet-stream' };

// The probes have a per-IP limit of their own: each call comes from another address, so only
// the test of that limit meets it.
let nextAddress = 0;
const freshAddress = () => `10.15.${Math.floor(++nextAddress / 250)}.${nextAddress % 250}`;

function upload(who: SignedIn | null, payload: Buffer | Readable | undefined, headers: Record<string, string> = OCTET, remoteAddress = freshAddress()) {
  return t.app.inject({ method: 'POST', url: '/api/attachment/speed', payload, headers: { ...headers, ...who?.headers }, remoteAddress });
}

/** What a speed test could leave behind: files on disk, attachment rows, operation records. */
async function footprint() {
  const db = t.database.db;
  const [a] = await db.select({ n: count() }).from(attachments);
  const [o] = await db.select({ n: count() }).from(operationRecords);
  return { files: filesUnder(t.config.dataDir).sort(), attachments: a!.n, records: o!.n };
}

describe('POST /attachment/speed', () => {
  it('reads and drops the body, answering how many bytes came', async () => {
    const before = await footprint();
    const res = await upload(participant, Buffer.alloc(300_000, 7));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, data: { received: 300_000 } });
    // With a charset parameter or in capitals the type is the same.
    const typed = await upload(participant, Buffer.alloc(10), { 'content-type': 'Application/Octet-Stream; charset=binary' });
    expect(typed.json().data).toEqual({ received: 10 });
    // A body of exactly the ceiling is still taken.
    expect((await upload(participant, Buffer.alloc(SPEED_MAX_BYTES))).json().data).toEqual({ received: SPEED_MAX_BYTES });
    expect(await footprint()).toEqual(before);
  });

  it('counts a streamed body of unknown length too', async () => {
    const res = await upload(participant, Readable.from([Buffer.alloc(70_000), Buffer.alloc(30_000)]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ received: 100_000 });
  });

  it('lets in every realm, as the download probe does, and nobody without a live session', async () => {
    for (const who of [participant, admin, expert]) expect((await upload(who, Buffer.alloc(16))).statusCode).toBe(200);
    const anonymous = await upload(null, Buffer.alloc(16));
    expect(anonymous.statusCode).toBe(401);
    expect((await upload(null, Buffer.alloc(16), { 'content-type': 'text/plain' })).statusCode).toBe(401);
    expect((await upload(null, undefined, { 'content-type': 'application/json' })).statusCode).toBe(401);
    expect((await upload({ ...participant, headers: { authorization: 'Bearer nope' } }, Buffer.alloc(16))).statusCode).toBe(401);
  });

  it('refuses a body over the ceiling with 413, whether declared or streamed', async () => {
    const before = await footprint();
    const declared = await upload(participant, Buffer.alloc(SPEED_MAX_BYTES + 1));
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: SPEED_MSG.tooLarge });
    expect(declared.headers.connection).toBe('close');

    const chunk = Buffer.alloc(1024 * 1024);
    const streamed = await upload(participant, Readable.from((function* () { for (let i = 0; i <= 20; i++) yield chunk; })()));
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().message).toBe(SPEED_MSG.tooLarge);
    expect(await footprint()).toEqual(before);
  });

  it('refuses anything but raw bytes with 400 and a clear message, parsing nothing', async () => {
    const before = await footprint();
    const types: Record<string, string>[] = [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/json' }, { 'content-type': 'multipart/form-data; boundary=x' }];
    for (const headers of types) {
      const res = await upload(participant, Buffer.from('{"a":1}'), headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: SPEED_MSG.badType });
    }
    expect(SPEED_MSG.badType).toMatch(/[\u4e00-\u9fff]/);
    expect(await footprint()).toEqual(before);
  });

  it('is rate-limited per caller more tightly than the global ceiling', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await upload(participant, Buffer.alloc(8), OCTET, '10.99.0.1')).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another address is not held back.
    expect((await upload(participant, Buffer.alloc(8))).statusCode).toBe(200);
  });
});

describe('GET /attachment/speed (moved beside the upload probe)', () => {
  it('serves the asked number of bytes, uncached, to every realm and to nobody signed out', async () => {
    for (const who of [participant, admin, expert]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/attachment/speed?size=1000', headers: who.headers, remoteAddress: freshAddress() });
      expect(res.statusCode).toBe(200);
      expect(res.headers).toMatchObject({ 'content-length': '1000', 'cache-control': 'no-store', 'content-type': 'application/octet-stream' });
      expect(res.rawPayload.length).toBe(1000);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/attachment/speed?size=1000' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/attachment/speed?size=${SPEED_MAX_BYTES + 1}`, headers: participant.headers })).statusCode).toBe(400);
  });
});
