import type { apiClient } from './ui.js';
import { ownPassword } from './ui.js';

/**
 * Review records a journey needs but the demo install does not hold, made through the API as an
 * operator would (docs/rules/review.md): the review windows, experts, final-round projects and
 * final groups. The console and expert pages that make them are walked by expert-review.e2e.ts;
 * other journeys build them here in a second.
 */
type Api = ReturnType<typeof apiClient>;

const DAY = 86_400_000;

/**
 * The phase windows with the preliminary review open now (`prelim`), or with it over and the
 * final review open now (`final`).
 */
export async function setReviewPhases(api: Api, admin: string, round: 'prelim' | 'final', review?: Record<string, unknown>): Promise<void> {
  const settings = await api.ok<{ phases: Record<string, unknown>; review: Record<string, unknown> }>('GET', '/admin/settings', admin);
  const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
  settings.phases =
    round === 'prelim'
      ? { signUp: { start: at(-30), end: at(-20) }, prelimSubmission: { start: at(-20), end: at(-2) }, prelimReview: { start: at(-1), end: at(10) }, finalReview: { start: at(11), end: at(20) } }
      : { signUp: { start: at(-30), end: at(-20) }, prelimSubmission: { start: at(-20), end: at(-2) }, prelimReview: { start: at(-1.5), end: at(-0.001) }, finalReview: { start: at(-0.0005), end: at(10) } };
  if (review) settings.review = { ...settings.review, ...review };
  await api.ok('PUT', '/admin/settings', admin, settings);
}

/** Demo projects (apps/server/src/seed/demo-data.ts) by name: their preliminary ids. */
export async function demoProjects(api: Api, admin: string, names: string[]): Promise<{ id: string; name: string }[]> {
  const projects = (await api.ok<{ list: { id: string; projectName: string }[] }>('GET', '/admin/prelim-doc/list?pageNum=1&pageSize=50', admin)).list;
  return names.map((name) => {
    const found = projects.find((p) => p.projectName === name);
    if (!found) throw new Error(`the demo install has no project ${name}`);
    return { id: found.id, name };
  });
}

/** Promotes exactly these projects to the final round (PICKED: preview, then confirm). */
export async function promoteToFinal(api: Api, admin: string, projectIds: string[]): Promise<void> {
  const pick = { mode: 'PICKED', ids: projectIds };
  const { token } = await api.ok<{ token: string }>('POST', '/admin/final/promotion/preview', admin, pick);
  await api.ok('POST', '/admin/final/promotion/confirm', admin, { ...pick, token });
}

/** A FINAL review group of these experts holding these final-round projects. */
export async function finalGroup(api: Api, admin: string, name: string, expertIds: string[], projectIds: string[]): Promise<string> {
  const group = await api.ok<{ id: string }>('POST', '/admin/review/final/groups', admin, { name, expertIds });
  for (const id of projectIds) await api.ok('POST', `/admin/review/final/projects/${id}/move`, admin, { groupId: group.id, reason: '决赛分组' });
  return group.id;
}

/** The ids of experts by code. */
export async function expertIds(api: Api, admin: string, codes: string[]): Promise<string[]> {
  const experts = await api.ok<{ list: { id: string; code: string }[] }>('GET', '/admin/expert/list?size=100', admin);
  return codes.map((code) => {
    const found = experts.list.find((e) => e.code === code);
    if (!found) throw new Error(`no expert ${code}`);
    return found.id;
  });
}

/**
 * A new expert (the admin's 新增专家): created, its generated password changed once as the first
 * login asks (ui.ts ownPassword). Answers its code and the password it signs in with.
 */
export async function newExpert(api: Api, base: string, admin: string, body: { name: string; phone: string; organization: string; tracks: string[] }): Promise<{ id: string; code: string; password: string }> {
  const created = await api.ok<{ id: string; code: string; password: string }>('POST', '/admin/expert', admin, { ...body, title: '教授', declaredOrgs: [] });
  return { id: created.id, code: created.code, password: await ownPassword(base, 'expert', created.code.toLowerCase(), created.password) };
}

/** Signs an expert in through the API (no slider for a first attempt) and accepts the review agreement. */
export async function expertToken(api: Api, code: string, password: string): Promise<string> {
  const { accessToken } = await api.ok<{ accessToken: string }>('POST', '/expert/login', null, { username: code.toLowerCase(), password });
  await api.ok('PUT', '/user/agreement', accessToken);
  return accessToken;
}
