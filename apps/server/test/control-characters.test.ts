import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { VALIDATION_MSG } from '@contest/shared';
import { feedback, teams } from '../src/db/schema.js';
import { api, seedDictionary, withContest } from './contest-helpers.js';
import { createTestApp, type TestApp } from './helpers.js';
import { signIn, type SignedIn } from './sign-in.js';

/**
 * Request text may not carry control characters (BEL, ESC, ...) or bidirectional
 * overrides/isolates (U+202A-U+202E, U+2066-U+2069), which garble logs and exports and make
 * names read backwards. Refused once for every route (plugins/zod.ts), with one message.
 */
let t: TestApp;
let me: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  me = await signIn(t, { realm: 'USER' });
});
afterAll(async () => t?.close());

const FORBIDDEN: [string, string][] = [
  ['U+202E (right-to-left override)', '\u202Egnp.exe'],
  ['U+2066 (left-to-right isolate)', 'team\u2066x'],
  ['BEL', 'ding\u0007'],
  ['ESC', '\u001b[31mred'],
  ['NUL', 'a\u0000b'],
  ['DEL', 'a\u007fb'],
  ['vertical tab', 'a\u000bb'],
  // docs/security.md "Input hygiene": C1 controls, zero-width, line/paragraph separators, tags, lone surrogates.
  ['U+0085 (C1 next line)', 'a\u0085b'],
  ['U+009B (C1 CSI)', '\u009b31mred'],
  ['U+200B (zero-width space)', 'team\u200bA'],
  ['U+200C (zero-width non-joiner)', 'team\u200cA'],
  ['U+200D (zero-width joiner)', '\u{1F468}\u200d\u{1F4BB}'],
  ['U+2060 (word joiner)', 'team\u2060A'],
  ['U+FEFF (byte order mark)', '\ufeffteam'],
  ['U+2028 (line separator)', 'a\u2028b'],
  ['U+2029 (paragraph separator)', 'a\u2029b'],
  ['U+E0041 (tag letter A)', 'team\u{E0041}'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', 'a\udc00b'],
];

const teamCount = async () => ((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(teams).where(eq(teams.ownerId, me.accountId))) as [{ n: number }])[0].n;
const feedbackCount = async () => ((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(feedback).where(eq(feedback.ownerId, me.accountId))) as [{ n: number }])[0].n;

describe('control characters in request text', () => {
  it.each(FORBIDDEN)('refuses a team name with %s and writes nothing', async (_what, teamName) => {
    const res = await api(t, 'PUT', '/api/team/my', { headers: me.headers, body: { teamName } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message: VALIDATION_MSG.controlCharacters, data: { field: 'teamName' } });
    expect(await teamCount()).toBe(0);
  });

  it.each(FORBIDDEN)('refuses feedback with %s and writes nothing', async (_what, text) => {
    for (const body of [{ type: 'BUG', content: text }, { type: 'BUG', content: 'ok', contact: text }]) {
      const res = await api(t, 'POST', '/api/feedback', { headers: me.headers, body });
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(VALIDATION_MSG.controlCharacters);
    }
    expect(await feedbackCount()).toBe(0);
  });

  it('keeps tabs and line breaks, and ordinary text', async () => {
    const res = await api(t, 'POST', '/api/feedback', { headers: me.headers, body: { type: 'BUG', content: '第一行\r\n第二行\t缩进 עברית 😀' } });
    expect(res.statusCode).toBe(200);
    const team = await api(t, 'PUT', '/api/team/my', { headers: me.headers, body: { teamName: '智慧医保 Team-1' } });
    expect(team.statusCode).toBe(200);
  });

  it('refuses a lone surrogate as the JSON text carries it (not stored as U+FFFD)', async () => {
    const before = await teamCount();
    for (const raw of ['{"teamName":"a\\ud800"}', '{"teamName":"\\udfff\\ud800"}']) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/team/my', headers: { ...me.headers, 'content-type': 'application/json' }, payload: raw });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: VALIDATION_MSG.controlCharacters, data: { field: 'teamName' } });
    }
    expect(await teamCount()).toBe(before);
  });

  it('keeps a surrogate pair (an emoji written as JSON escapes)', async () => {
    const res = await api(t, 'POST', '/api/feedback', { headers: me.headers, body: { type: 'BUG', content: 'ok \ud83d\ude00 \u{1F3E5}' } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses them in query strings too', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/news?keyword=${encodeURIComponent('a\u202Eb')}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(VALIDATION_MSG.controlCharacters);
  });
});
