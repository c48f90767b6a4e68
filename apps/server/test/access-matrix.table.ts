/**
 * Who may call what (docs/security.md, "V4 Access control"): one row per `METHOD /api/path` of the app's route table, one
 * column per identity, each cell the status that identity gets. access-matrix.test.ts builds the
 * whole app with these identities, calls every row as each of them and checks the cell; a route
 * without a row (or a row without a route) fails it, so a new route cannot skip this table.
 *
 * Identities (columns, always in this order):
 *   anon       nobody signed in
 *   A          participant A: owns the team, the project, the files, the feedback, the message,
 *              the appeal; every path id of a row points at A's records
 *   B          participant B: another participant, no team (A's ids must never answer B 200)
 *   admin      SUPER_ADMIN (every menu and button)
 *   noBtn      an admin whose role holds one other menu (首页 `home`) and no button
 *   exp        expert of the group A's project is in (both rounds), agreement accepted
 *   expOther   expert of another group
 *   expConf    expert of A's group from A's own organisation (conflict of interest)
 *   expNew     expert of A's group who has not accepted the review agreement yet
 *
 * Cells: `ok` = allowed: any answer but 401/403/404 (and never a 5xx), so a 400 from a payload
 * the row's request leaves incomplete still counts; a number pins that exact status.
 *
 * A row key may carry a `#variant` (same route, another request: a signed link, a team file, a
 * public file...). Every route needs its plain row; variants are extra.
 */

export const IDENTITIES = ['anon', 'A', 'B', 'admin', 'noBtn', 'exp', 'expOther', 'expConf', 'expNew'] as const;
export type Identity = (typeof IDENTITIES)[number];

export type Cell = 'ok' | 200 | 400 | 401 | 403 | 404;

/** What the route's admin guard must be (read from the route table): keeps the table honest about permissions. */
export type GuardSpec = { kind: 'button'; code: string | null } | { kind: 'menu'; codes: string[] } | { kind: 'any' };

export interface Row {
  cells: Record<Identity, Cell>;
  guard?: GuardSpec;
}

/**
 * One row from its nine cells in column order, groups separated by `|` for the eye:
 * `r('401 ok 404 | 401 401 | 401 401 401 401')`.
 */
export function r(spec: string, guard?: GuardSpec): Row {
  const words = spec.split(/[\s|]+/).filter(Boolean);
  if (words.length !== IDENTITIES.length) throw new Error(`access row "${spec}": ${words.length} cells, want ${IDENTITIES.length}`);
  const cells = Object.fromEntries(
    IDENTITIES.map((id, i) => {
      const w = words[i]!;
      if (w === 'ok') return [id, 'ok'];
      const n = Number(w);
      if (![200, 400, 401, 403, 404].includes(n)) throw new Error(`access row "${spec}": bad cell "${w}"`);
      return [id, n];
    }),
  ) as Record<Identity, Cell>;
  return { cells, guard };
}

// ---- Shorthands (each still expands to a full row per route) ----------------------------------------

/** No sign-in needed; a staff token reads the public view (never 401). */
const PUBLIC = r('ok ok ok | ok ok | ok ok ok ok');
/** Any signed-in account of any realm. */
const SIGNED_IN = r('401 ok ok | ok ok | ok ok ok ok');
/** The participant's own records, found from the session (no ids): both participants, no staff. */
const OWN = r('401 ok ok | 401 401 | 401 401 401 401');
/** A participant call on one of A's records by id: B gets 404 (never told it exists). */
const A_ONLY = r('401 ok 404 | 401 401 | 401 401 401 401');
/** Console call guarded by a button code: other realms 401, the admin without it 403. */
const ADMIN = (code: string) => r('401 401 401 | ok 403 | 401 401 401 401', { kind: 'button', code });
/** Console read guarded by holding any of these menus. */
const MENU = (...codes: string[]) => r('401 401 401 | ok 403 | 401 401 401 401', { kind: 'menu', codes });
/** Console call for any signed-in admin (own account, home dashboard, page tracking). */
const ANY_ADMIN = r('401 401 401 | ok ok | 401 401 401 401', { kind: 'button', code: null });
/** Console read whose menu depends on the query (audit realm): signed-in guard, menu checked by the handler. */
const MENU_BY_QUERY = r('401 401 401 | ok 403 | 401 401 401 401', { kind: 'any' });
/** Expert call that needs the accepted agreement, no project named. */
const EXPERT_AGREED = r('401 401 401 | 401 401 | ok ok ok 403');
/** Expert call on A's project: its group's expert only; conflicted and other experts 404, no agreement 403. */
const EXPERT_ON_A = r('401 401 401 | 401 401 | ok 404 404 403');

export const ACCESS_MATRIX: Record<string, Row> = {
  // ---- platform --------------------------------------------------------------------------------
  'GET /api/health': PUBLIC,
  // The live API description lists every call and its permission: admins only (plain signed-in guard).
  'GET /api/admin/openapi.json': { ...ANY_ADMIN, guard: { kind: 'any' } },

  // ---- identity (modules/auth, captcha, sms) -----------------------------------------------------
  'GET /api/captcha': PUBLIC,
  'GET /api/captcha/check': PUBLIC,
  'POST /api/captcha/check': PUBLIC,
  'POST /api/captcha/code/send': PUBLIC,
  'POST /api/captcha/code/check': PUBLIC,
  'POST /api/login/send/sms': PUBLIC,
  'POST /api/login': PUBLIC,
  'POST /api/admin/login': PUBLIC,
  'POST /api/expert/login': PUBLIC,
  'POST /api/login/register': PUBLIC,
  'POST /api/login/find/password': PUBLIC,
  'POST /api/login/change/password': SIGNED_IN,
  'PUT /api/user/locale': SIGNED_IN,
  'POST /api/logout': SIGNED_IN,
  'GET /api/user/account': OWN,
  //                                         anon  A   B  | admin noBtn | exp expOther expConf expNew
  'GET /api/admin/user/account':          r('401 401 401 | ok    ok    | ok  ok       ok      ok'),
  'PUT /api/user/agreement':              r('401 ok  ok  | 401   401   | ok  ok       ok      ok'),

  // ---- files (modules/files): A's application PDF unless the variant says otherwise -------------
  //                                         anon  A   B  | admin noBtn | exp expOther expConf expNew
  'POST /api/attachment/piece/upload':    r('401 ok  ok  | ok    403   | 403 403      403     403'),
  // A's upload id: anyone else is told it is not theirs (400, the upload id is the caller's own token).
  'GET /api/attachment/piece/status':     r('401 ok  400 | 400   400   | 400 400      400     400'),
  'POST /api/attachment/upload/public':   r('401 ok  ok  | ok    403   | 403 403      403     403'),
  // Direct upload (docs/files.md, "Direct upload"): who may start one is the piece upload's rule; the
  // matrix runs on the disk store, where the let-in are refused 400 (no direct upload there). Whose
  // upload it is (404 to anyone but its owner) is direct-upload.test.ts's, on an S3 store.
  'GET /api/attachment/direct':           SIGNED_IN,
  'POST /api/attachment/direct/start':    r('401 ok  ok  | ok    403   | 403 403      403     403'),
  'POST /api/attachment/direct/:id/parts':    r('401 400 400 | 400 400 | 400 400 400 400'),
  'GET /api/attachment/direct/:id':           r('401 400 400 | 400 400 | 400 400 400 400'),
  'POST /api/attachment/direct/:id/complete': r('401 400 400 | 400 400 | 400 400 400 400'),
  'GET /api/attachment/accessUrl':        r('404 ok  404 | ok    404   | ok  404      404     404'),
  'GET /api/attachment/stream/:id':       r('404 ok  404 | ok    404   | ok  404      404     404'),
  // A's organisation certificate: sign-up files are not review material.
  'GET /api/attachment/stream/:id#team-file': r('404 ok 404 | ok 404 | 404 404 404 404'),
  // A data document for approved teams (A's team is approved, B has none).
  'GET /api/attachment/stream/:id#data-document': r('404 ok 404 | ok 404 | 404 404 404 404'),
  // A news image: public.
  'GET /api/attachment/stream/:id#public-file': PUBLIC,
  // Each caller's own signed link when accessUrl gave one, else A's link re-pointed at the caller (forged): 403.
  'GET /api/attachment/stream/:id#signed-link': r('403 ok 403 | ok 403 | ok 403 403 403'),
  'GET /api/attachment/speed': SIGNED_IN,
  // The upload probe (the speed test) takes the same callers; the matrix sends no body, so the let-in get 400.
  'POST /api/attachment/speed': SIGNED_IN,

  // ---- contest: sign-up and materials (modules/contest, team, prelim) --------------------------
  'GET /api/contest/public': PUBLIC,
  'GET /api/team/my-brief': OWN,
  'GET /api/team/my': OWN,
  'PUT /api/team/my': OWN,
  'POST /api/team/my/submit': OWN,
  'GET /api/admin/team/draft/list': MENU('qualificationDraft'),
  'GET /api/admin/team/draft/:id': MENU('qualificationDraft'),
  'POST /api/admin/team/draft/remind': ADMIN('qualification-draft:remind'),
  'GET /api/admin/team/list': ADMIN('qualification:view'),
  'GET /api/admin/team/export': ADMIN('qualification:export'),
  'GET /api/admin/team/queue/next': ADMIN('qualification:audit'),
  'POST /api/admin/team/audit/batch': ADMIN('qualification:audit'),
  'GET /api/admin/team/:id': ADMIN('qualification:view'),
  'POST /api/admin/team/:id/audit': ADMIN('qualification:audit'),
  'GET /api/prelim-doc/my-brief': OWN,
  'GET /api/prelim-doc/my': OWN,
  'PUT /api/prelim-doc/my': OWN,
  'POST /api/prelim-doc/my/submit': OWN,
  'GET /api/admin/prelim-doc/draft/list': MENU('preliminaryBox'),
  'GET /api/admin/prelim-doc/draft/:id': MENU('preliminaryBox'),
  'POST /api/admin/prelim-doc/draft/remind': ADMIN('preliminary-draft:remind'),
  'GET /api/admin/prelim-doc/list': ADMIN('preliminary:view'),
  'GET /api/admin/prelim-doc/export': ADMIN('preliminary:export'),
  'GET /api/admin/prelim-doc/queue/next': ADMIN('preliminary:audit'),
  'POST /api/admin/prelim-doc/audit/batch': ADMIN('preliminary:audit'),
  'GET /api/admin/prelim-doc/:id': ADMIN('preliminary:view'),
  'POST /api/admin/prelim-doc/:id/audit': ADMIN('preliminary:audit'),
  'GET /api/admin/final/list': MENU('preliminaryAdminSearch'),
  'GET /api/admin/final/export': ADMIN('final:export'),
  'GET /api/admin/final/:id': MENU('preliminaryAdminSearch'),
  'POST /api/admin/final/:id/add': ADMIN('final:promote'),
  'POST /api/admin/final/:id/remove': ADMIN('final:promote'),

  // ---- review: experts, groups, scoring, scores, monitoring, promotion (modules/experts, review) --
  'GET /api/admin/expert/list': MENU('databaseExpert', 'reviewGroup', 'reviewAdminGroup', 'gradeManageGrade', 'gradeManageAdminGrade'),
  'GET /api/admin/expert/import-template': ADMIN('expert:import'),
  'POST /api/admin/expert/import': ADMIN('expert:import'),
  'GET /api/admin/expert/export': ADMIN('expert:export'),
  'GET /api/admin/expert/:id': MENU('databaseExpert'),
  'POST /api/admin/expert': ADMIN('expert:edit'),
  'PUT /api/admin/expert/:id': ADMIN('expert:edit'),
  'PUT /api/admin/expert/:id/enabled': ADMIN('expert:disable'),
  'POST /api/admin/expert/:id/reset-password': ADMIN('expert:reset-password'),

  'GET /api/admin/review/prelim/rubric': MENU('reviewGroup'),
  'PUT /api/admin/review/prelim/rubric': ADMIN('group:edit'),
  'GET /api/admin/review/prelim/groups': MENU('reviewGroup'),
  'POST /api/admin/review/prelim/groups': ADMIN('group:edit'),
  'PUT /api/admin/review/prelim/groups/:id': ADMIN('group:edit'),
  'DELETE /api/admin/review/prelim/groups/:id': ADMIN('group:edit'),
  'GET /api/admin/review/prelim/projects': MENU('reviewGroup'),
  'POST /api/admin/review/prelim/projects/:id/move': ADMIN('group:edit'),
  'POST /api/admin/review/prelim/assign/preview': ADMIN('group:edit'),
  'POST /api/admin/review/prelim/assign/apply': ADMIN('group:edit'),
  'GET /api/admin/review/final/rubric': MENU('reviewAdminGroup'),
  'PUT /api/admin/review/final/rubric': ADMIN('final-group:edit'),
  'GET /api/admin/review/final/groups': MENU('reviewAdminGroup'),
  'POST /api/admin/review/final/groups': ADMIN('final-group:edit'),
  'PUT /api/admin/review/final/groups/:id': ADMIN('final-group:edit'),
  'DELETE /api/admin/review/final/groups/:id': ADMIN('final-group:edit'),
  'GET /api/admin/review/final/projects': MENU('reviewAdminGroup'),
  'POST /api/admin/review/final/projects/:id/move': ADMIN('final-group:edit'),
  'POST /api/admin/review/final/assign/preview': ADMIN('final-group:edit'),
  'POST /api/admin/review/final/assign/apply': ADMIN('final-group:edit'),

  //                                              anon  A   B  | admin noBtn | exp expOther expConf expNew
  'GET /api/expert/review/overview':           r('401 401 401 | 401   401   | ok  ok       ok      ok'),
  'GET /api/expert/review/prelim/list': EXPERT_AGREED,
  // The expert's own declared organisations (modules/experts): their own account only.
  'GET /api/expert/organisations': EXPERT_AGREED,
  'POST /api/expert/organisations': EXPERT_AGREED,
  'GET /api/expert/review/prelim/:id': EXPERT_ON_A,
  'PUT /api/expert/review/prelim/:id/sheet': EXPERT_ON_A,
  'POST /api/expert/review/prelim/:id/sheet/submit': EXPERT_ON_A,
  'POST /api/expert/review/prelim/:id/abstain': EXPERT_ON_A,
  'GET /api/expert/review/final/list': EXPERT_AGREED,
  'GET /api/expert/review/final/:id': EXPERT_ON_A,
  'PUT /api/expert/review/final/:id/sheet': EXPERT_ON_A,
  'POST /api/expert/review/final/:id/sheet/submit': EXPERT_ON_A,
  'POST /api/expert/review/final/:id/abstain': EXPERT_ON_A,
  'POST /api/admin/review/prelim/sheets/:id/return': ADMIN('score:return'),
  'POST /api/admin/review/prelim/projects/:id/rereview': ADMIN('score:return'),
  'POST /api/admin/review/final/sheets/:id/return': ADMIN('final-score:return'),
  'POST /api/admin/review/final/projects/:id/rereview': ADMIN('final-score:return'),

  // ---- the live final (modules/live-final, docs/live-final.md): a LIVE session with A's project on
  // stage; judges exp (expected), expConf (a judge, in conflict with A) and expNew (no agreement).
  'GET /api/admin/live/candidates': MENU('liveFinal'),
  'GET /api/admin/live/sessions': MENU('liveFinal'),
  'POST /api/admin/live/sessions': ADMIN('live:plan'),
  'GET /api/admin/live/sessions/:id': MENU('liveFinal'),
  'PUT /api/admin/live/sessions/:id': ADMIN('live:plan'),
  'DELETE /api/admin/live/sessions/:id': ADMIN('live:plan'),
  'PUT /api/admin/live/sessions/:id/projects': ADMIN('live:plan'),
  'POST /api/admin/live/sessions/:id/projects/import': ADMIN('live:plan'),
  'GET /api/admin/live/sessions/:id/running-order': MENU('liveFinal'),
  'GET /api/admin/live/sessions/:id/displays': MENU('liveFinal'),
  'POST /api/admin/live/sessions/:id/displays': ADMIN('live:display'),
  'DELETE /api/admin/live/sessions/:id/displays/:linkId': ADMIN('live:display'),
  'GET /api/admin/live/sessions/:id/chair': ADMIN('live:chair'),
  // Server-sent events: `ok` = the stream opened (access-matrix.test.ts CUSTOM).
  'GET /api/admin/live/sessions/:id/events': ADMIN('live:chair'),
  'POST /api/admin/live/sessions/:id/actions': ADMIN('live:chair'),
  'GET /api/expert/live/sessions': EXPERT_AGREED,
  // A session's judges only: another expert is told it does not exist.
  //                                                  anon  A   B  | admin noBtn | exp expOther expConf expNew
  'GET /api/expert/live/sessions/:id':             r('401 401 401 | 401   401   | ok  404      ok      403'),
  'GET /api/expert/live/sessions/:id/events':      r('401 401 401 | 401   401   | ok  404      ok      403'),
  'POST /api/expert/live/sessions/:id/projects/:projectId/score': r('401 401 401 | 401 401 | ok 404 ok 403'),
  // The big screen: no login, the display token is the key (a wrong one is 404, live-final.test.ts).
  'GET /api/live/display/:token': PUBLIC,
  'GET /api/live/display/:token/events': PUBLIC,

  'GET /api/admin/review/prelim/scores': MENU('gradeManageGrade'),
  'GET /api/admin/review/prelim/scores/export': ADMIN('score:export'),
  'GET /api/admin/review/prelim/scores/:id': MENU('gradeManageGrade'),
  'GET /api/admin/review/prelim/monitor/experts': MENU('scoringMonitoringExpert'),
  'GET /api/admin/review/prelim/monitor/experts/:id': MENU('scoringMonitoringExpert'),
  'GET /api/admin/review/prelim/monitor/projects': MENU('scoringMonitoringExpert'),
  'POST /api/admin/review/prelim/monitor/remind': ADMIN('monitor:remind'),
  'GET /api/admin/review/final/scores': MENU('gradeManageAdminGrade'),
  'GET /api/admin/review/final/scores/export': ADMIN('final-score:export'),
  'GET /api/admin/review/final/scores/:id': MENU('gradeManageAdminGrade'),
  'GET /api/admin/review/final/monitor/experts': MENU('scoringMonitoringAdminExpert'),
  'GET /api/admin/review/final/monitor/experts/:id': MENU('scoringMonitoringAdminExpert'),
  'GET /api/admin/review/final/monitor/projects': MENU('scoringMonitoringAdminExpert'),
  'POST /api/admin/review/final/monitor/remind': ADMIN('final-monitor:remind'),
  // Judging quality (judging-quality.routes.ts): reads under the score-query menu, the export, the note and the bootstrap under buttons.
  'GET /api/admin/review/prelim/calibration': MENU('gradeManageGrade'),
  'GET /api/admin/review/prelim/calibration/export': ADMIN('score:export'),
  'POST /api/admin/review/prelim/calibration/note': ADMIN('monitor:remind'),
  'GET /api/admin/review/prelim/normalisation': MENU('gradeManageGrade'),
  'POST /api/admin/review/prelim/cut-confidence': ADMIN('score:cut-confidence'),
  'GET /api/admin/review/prelim/cut-confidence': MENU('gradeManageGrade'),
  'GET /api/admin/review/final/calibration': MENU('gradeManageAdminGrade'),
  'GET /api/admin/review/final/calibration/export': ADMIN('final-score:export'),
  'POST /api/admin/review/final/calibration/note': ADMIN('final-monitor:remind'),
  'GET /api/admin/review/final/normalisation': MENU('gradeManageAdminGrade'),
  'POST /api/admin/review/final/cut-confidence': ADMIN('final-score:cut-confidence'),
  'GET /api/admin/review/final/cut-confidence': MENU('gradeManageAdminGrade'),
  'POST /api/admin/final/promotion/preview': ADMIN('final:promote'),
  'POST /api/admin/final/promotion/confirm': ADMIN('final:promote'),
  'GET /api/admin/final/promotions': MENU('preliminaryAdminSearch'),

  // ---- results and appeals (modules/results) ------------------------------------------------------
  'GET /api/admin/results/overview': MENU('resultPublish'),
  'POST /api/admin/results/prelim/publish/preview': ADMIN('result:publish'),
  'POST /api/admin/results/prelim/publish': ADMIN('result:publish'),
  'GET /api/admin/results/prelim/versions': MENU('resultPublish'),
  'GET /api/admin/results/prelim/versions/compare': MENU('resultPublish'),
  'GET /api/admin/results/prelim/versions/:n/entries': MENU('resultPublish'),
  'POST /api/admin/results/prelim/versions/preview': ADMIN('result:publish'),
  'POST /api/admin/results/prelim/versions': ADMIN('result:publish'),
  // B has no project in the published result: refused (403 NOT_IN_ROUND), not merely a bad payload.
  //                                              anon  A   B  | admin noBtn | exp expOther expConf expNew
  'POST /api/results/prelim/appeal':           r('401 ok  403 | 401   401   | 401 401      401     401'),
  'POST /api/admin/results/final/publish/preview': ADMIN('result:publish'),
  'POST /api/admin/results/final/publish': ADMIN('result:publish'),
  'GET /api/admin/results/final/versions': MENU('resultPublish'),
  'GET /api/admin/results/final/versions/compare': MENU('resultPublish'),
  'GET /api/admin/results/final/versions/:n/entries': MENU('resultPublish'),
  'POST /api/admin/results/final/versions/preview': ADMIN('result:publish'),
  'POST /api/admin/results/final/versions': ADMIN('result:publish'),
  'POST /api/results/final/appeal':            r('401 ok  403 | 401   401   | 401 401      401     401'),
  'GET /api/results/mine': OWN,
  // The team's own score receipt: B has no line in the published results, so nothing to give.
  'GET /api/results/prelim/receipt': A_ONLY,
  'GET /api/results/final/receipt': A_ONLY,
  'GET /api/admin/appeals': MENU('appealManage'),
  'GET /api/admin/appeals/:id': MENU('appealManage'),
  'POST /api/admin/appeals/:id/reject': ADMIN('appeal:decide'),
  'POST /api/admin/appeals/:id/accept': ADMIN('appeal:decide'),

  // ---- certificates and letters (modules/certificates, docs/certificates.md): A's promotion notice, exp's letter
  'GET /api/admin/certificates/templates': MENU('certificateTemplate'),
  'GET /api/admin/certificates/templates/:id': MENU('certificateTemplate'),
  'POST /api/admin/certificates/templates': ADMIN('certificate:manage'),
  'PUT /api/admin/certificates/templates/:id': ADMIN('certificate:manage'),
  'PUT /api/admin/certificates/templates/:id/enabled': ADMIN('certificate:manage'),
  'GET /api/admin/certificates/templates/:id/versions': MENU('certificateTemplate'),
  'GET /api/admin/certificates/templates/:id/versions/:n': MENU('certificateTemplate'),
  'GET /api/admin/certificates/templates/:id/versions/:n/preview': MENU('certificateTemplate'),
  'POST /api/admin/certificates/templates/preview': ADMIN('certificate:manage'),
  'GET /api/admin/certificates/preview-records': MENU('certificateTemplate'),
  'GET /api/admin/certificates/overview': MENU('certificateManage'),
  'GET /api/admin/certificates/jobs/:jobId': MENU('certificateManage'),
  'GET /api/admin/certificates/documents': MENU('certificateManage'),
  'GET /api/admin/certificates/documents/:id/pdf': ADMIN('certificate:download'),
  'POST /api/admin/certificates/prelim/issue': ADMIN('certificate:issue'),
  'POST /api/admin/certificates/final/issue': ADMIN('certificate:issue'),
  'GET /api/admin/certificates/prelim/zip': ADMIN('certificate:download'),
  'GET /api/admin/certificates/final/zip': ADMIN('certificate:download'),
  'GET /api/certificates/mine': OWN,
  // Another team's document: 404, as one that does not exist.
  'GET /api/certificates/:id/pdf': A_ONLY,
  //                                              anon  A   B  | admin noBtn | exp expOther expConf expNew
  'GET /api/expert/certificates/mine':         r('401 401 401 | 401   401   | ok  ok       ok      ok'),
  'GET /api/expert/certificates/:id/pdf':      r('401 401 401 | 401   401   | ok  404      404     404'),
  'GET /api/certificates/verify/:serial': PUBLIC,

  // ---- console: accounts, roles, dictionary, users, audit, home, settings (modules/admin) ----------
  'GET /api/admin/system/account': MENU('systemManage'),
  'GET /api/admin/system/account/:id': MENU('systemManage'),
  'POST /api/admin/system/account': ADMIN('account:edit'),
  'PUT /api/admin/system/account/:id': ADMIN('account:edit'),
  'PUT /api/admin/system/account/:id/roles': ADMIN('account:edit'),
  'PUT /api/admin/system/account/:id/status': ADMIN('account:disable'),
  'POST /api/admin/system/account/:id/reset-password': ADMIN('account:reset-password'),
  'GET /api/admin/account/profile': ANY_ADMIN,
  'PUT /api/admin/account/profile': ANY_ADMIN,
  'GET /api/admin/role/list': MENU('roleManage', 'systemManage'),
  'GET /api/admin/role/list/:id': MENU('roleManage', 'systemManage'),
  'GET /api/admin/role/tree': MENU('roleManage'),
  'POST /api/admin/role': ADMIN('role:edit'),
  'PUT /api/admin/role/:id': ADMIN('role:edit'),
  'DELETE /api/admin/role/:id': ADMIN('role:delete'),
  'GET /api/dic/public': PUBLIC,
  'GET /api/dic/module': PUBLIC,
  'GET /api/dic/label': PUBLIC,
  'GET /api/admin/dic/type': MENU('dataField'),
  'POST /api/admin/dic/type': ADMIN('dict:edit'),
  'PUT /api/admin/dic/type/:code': ADMIN('dict:edit'),
  'DELETE /api/admin/dic/type/:code': ADMIN('dict:edit'),
  'GET /api/admin/dic/item': MENU('dataField'),
  'POST /api/admin/dic/item': ADMIN('dict:edit'),
  'PUT /api/admin/dic/item/:id': ADMIN('dict:edit'),
  'GET /api/admin/user/list': ADMIN('user:view'),
  'GET /api/admin/user/detail/:id': ADMIN('user:view'),
  'PUT /api/admin/user/:id/status': ADMIN('user:disable'),
  'POST /api/admin/user/:id/reset-password': ADMIN('user:reset-password'),
  'GET /api/admin/user/export': ADMIN('user:export'),
  // One record's personal data unmasked (A's account): the pii:view button, then the kind's page menu.
  'GET /api/admin/pii/:kind/:id': ADMIN('pii:view'),
  'GET /api/admin/audit/login-records': MENU_BY_QUERY,
  'GET /api/admin/audit/operation-records': MENU_BY_QUERY,
  'GET /api/admin/track': ANY_ADMIN,
  'GET /api/admin/dashboard': ANY_ADMIN,
  'GET /api/admin/settings': MENU('systemSettings'),
  'PUT /api/admin/settings': ADMIN('settings:edit'),

  // ---- content: news, site blocks, documents (modules/news, site-content, documents) --------------
  'GET /api/news': PUBLIC,
  'GET /api/news/:id': PUBLIC,
  'GET /api/admin/news/:id/preview': MENU('siteContentManagement'),
  'GET /api/admin/news': MENU('siteContentManagement'),
  'GET /api/admin/news/:id': MENU('siteContentManagement'),
  'POST /api/admin/news': ADMIN('news:edit'),
  'PUT /api/admin/news/:id': ADMIN('news:edit'),
  'POST /api/admin/news/:id/publish': ADMIN('news:publish'),
  'POST /api/admin/news/:id/offline': ADMIN('news:publish'),
  'PUT /api/admin/news/:id/pinned': ADMIN('news:publish'),
  'DELETE /api/admin/news/:id': ADMIN('news:delete'),
  'GET /api/site/content': PUBLIC,
  'GET /api/site/content/:key': PUBLIC,
  'GET /api/admin/site-content': MENU('siteContentManagement'),
  'PUT /api/admin/site-content/:key': ADMIN('news:edit'),
  'GET /api/template/public': PUBLIC,
  // Staff tokens read the public view (as nobody signed in).
  'GET /api/documents': PUBLIC,
  // A data document for approved teams: A's team is approved; B, nobody and staff see the public view.
  //                                              anon  A   B  | admin noBtn | exp expOther expConf expNew
  'GET /api/documents/:id/file':               r('404 ok  404 | 404   404   | 404 404      404     404'),
  'GET /api/documents/:id/file#public-document': PUBLIC,
  'GET /api/admin/documents': MENU('docManage'),
  'GET /api/admin/documents/:id': MENU('docManage'),
  'POST /api/admin/documents': ADMIN('doc:edit'),
  'PUT /api/admin/documents/:id': ADMIN('doc:edit'),
  'PUT /api/admin/documents/:id/enabled': ADMIN('doc:edit'),
  'DELETE /api/admin/documents/:id': ADMIN('doc:delete'),

  // ---- messages: bulk sends, inbox, feedback, templates (modules/broadcast, messages, feedback, templates)
  'POST /api/admin/broadcast/insite/preview': ADMIN('message:send'),
  'POST /api/admin/broadcast/insite/send': ADMIN('message:send'),
  'POST /api/admin/broadcast/sms/preview': ADMIN('sms:send'),
  'POST /api/admin/broadcast/sms/send': ADMIN('sms:send'),
  'POST /api/admin/broadcast/email/preview': ADMIN('message:send'),
  'POST /api/admin/broadcast/email/send': ADMIN('message:send'),
  'GET /api/admin/broadcast': MENU('InMailManage', 'NoteManage'),
  'GET /api/admin/broadcast/accounts': MENU('InMailManage', 'NoteManage'),
  'GET /api/admin/broadcast/:id': MENU('InMailManage', 'NoteManage'),
  'POST /api/admin/broadcast/:id/recall': ADMIN('message:send'),
  // The inbox serves participants and experts, each their own rows.
  //                                              anon  A   B  | admin noBtn | exp expOther expConf expNew
  'GET /api/messages':                         r('401 ok  ok  | 401   401   | ok  ok       ok      ok'),
  'GET /api/messages/summary':                 r('401 ok  ok  | 401   401   | ok  ok       ok      ok'),
  'PUT /api/messages/read-all':                r('401 ok  ok  | 401   401   | ok  ok       ok      ok'),
  'GET /api/messages/:id':                     r('401 ok  404 | 401   401   | 404 404      404     404'),
  'POST /api/feedback': OWN,
  // Attaching A's file to one's own feedback: only A may.
  'POST /api/feedback#with-A-file':            r('401 ok  400 | 401   401   | 401 401      401     401'),
  'GET /api/feedback/my': OWN,
  'GET /api/feedback/:id': A_ONLY,
  'GET /api/admin/feedback': MENU('UserFeedback'),
  'GET /api/admin/feedback/:id': MENU('UserFeedback'),
  'POST /api/admin/feedback/:id/reply': ADMIN('feedback:reply'),
  'POST /api/admin/feedback/:id/close': ADMIN('feedback:reply'),
  'GET /api/admin/templates': MENU('NoteManage', 'InMailManage'),
  'GET /api/admin/templates/:key': MENU('NoteManage', 'InMailManage'),
  'POST /api/admin/templates': ADMIN('sms:template'),
  'PUT /api/admin/templates/:key': ADMIN('sms:template'),
  'PUT /api/admin/templates/:key/enabled': ADMIN('sms:template'),
  'DELETE /api/admin/templates/:key': ADMIN('sms:template'),

  // ---- tamper-evident score log (modules/score-log) -----------------------------------------------
  'GET /api/admin/score-log': MENU('scoreLog'),
  'GET /api/admin/score-log/verify': MENU('scoreLog'),
  'GET /api/admin/score-log/anchors': MENU('scoreLog'),
  'GET /api/admin/score-log/export': ADMIN('score-log:export'),

  // ---- personal-data retention and requests (modules/retention, docs/retention.md) ---------------
  'GET /api/admin/retention': MENU('dataRetention'),
  'GET /api/admin/retention/runs': MENU('dataRetention'),
  'GET /api/admin/retention/runs/:id': MENU('dataRetention'),
  'POST /api/admin/retention/dry-run': ADMIN('retention:run'),
  // A finished run: executing it again is refused 400 (planStale), so the walk writes nothing.
  'POST /api/admin/retention/runs/:id/execute': ADMIN('retention:run'),
  'GET /api/admin/data-requests': MENU('dataRequests'),
  'POST /api/admin/data-requests/:id/decide': ADMIN('data-request:decide'),
  'GET /api/my-data': OWN,
  'POST /api/my-data/export': OWN,
  // A's export: only A may fetch it (B is told it does not exist).
  'GET /api/my-data/export/:id/download': A_ONLY,
  'POST /api/my-data/deletion': OWN,
};

/** `METHOD /api/path` of a row key (without its `#variant`). */
export const routeOf = (key: string) => key.replace(/#.*$/, '');
