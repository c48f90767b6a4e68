import { redirect, type LazyRouteFunction, type RouteObject } from 'react-router';
import { ADMIN_MENU_PATHS, type MenuCode } from '@contest/shared';
import type { ConsoleRouteHandle } from '../../components/admin-kit/console-handle';
import type { TitleKey } from '../../lib/route-handle';
import { withNamespaces } from '../../i18n';
import { guardRoutes, requireStaffLogin } from '../../lib/route-guards';

/**
 * Admin area under /admin (docs/rules/screens.md, "Consoles"). Every page carries its menu code in `handle`;
 * the console layout sends a page whose code the account lacks to /404 (the menu rules).
 * Detail pages are flagged notInMenu and name the menu entry they belong to.
 */
export const ADMIN_PATHS = {
  root: '/admin',
  login: '/admin/login',
  changePassword: '/admin/change-password',
  home: ADMIN_MENU_PATHS.home,
  // Not a menu entry: the spec's /admin/grade opens it, and it opens the preliminary score query.
  gradeManage: '/admin/grade/gradeManage',
} as const;

type Lazy = LazyRouteFunction<RouteObject>;

const placeholder: Lazy = async () => ({
  Component: (await import('./pages/AdminPlaceholderPage')).AdminPlaceholderPage,
});
const detailPlaceholder: Lazy = async () => ({
  Component: (await import('./pages/AdminPlaceholderPage')).AdminDetailPlaceholderPage,
});

/** A menu entry's page: its path is the shared menu tree's (ADMIN_MENU_PATHS), named by its code. */
function page(code: MenuCode, title: TitleKey, lazy: Lazy = placeholder): RouteObject {
  return { path: ADMIN_MENU_PATHS[code], handle: { title, code } satisfies ConsoleRouteHandle, lazy };
}

function detail(path: string, activeMenu: MenuCode, title: TitleKey, lazy: Lazy = detailPlaceholder): RouteObject {
  return { path, handle: { title, notInMenu: true, activeMenu } satisfies ConsoleRouteHandle, lazy };
}

/** A menu group (or the spec's extra path) that opens one of its entries. */
function redirectTo(from: MenuCode | string, to: MenuCode | string): RouteObject {
  const pathOf = (codeOrPath: string) => (codeOrPath in ADMIN_MENU_PATHS ? ADMIN_MENU_PATHS[codeOrPath as MenuCode] : codeOrPath);
  const path = pathOf(from);
  // element: null tells react-router the empty render before the redirect is intended.
  return { path, loader: () => redirect(pathOf(to)), element: null };
}

/** The console's catch-all page (components/admin-kit, shared with the expert console). */
const consoleNotFound: Lazy = async () => ({
  Component: (await import('../../components/admin-kit/ConsoleNotFound')).ConsoleNotFound,
});

const P = { ...ADMIN_MENU_PATHS, ...ADMIN_PATHS };

/** The live final's pages (./live, one chunk) with their texts. */
const livePage = (name: keyof typeof import('./live/live-pages')): Lazy =>
  withNamespaces(['liveAdmin'], async () => ({ Component: (await import('./live/live-pages'))[name] }));

const consoleRoutes: RouteObject[] = [
  // The logo and session-expiry redirects target /admin; its home is /admin/home.
  { index: true, loader: () => redirect(P.home), element: null },
  page('home', 'admin:titles.home', async () => ({
    Component: (await import('./pages/AdminHomePage')).AdminHomePage,
  })),
  page('userTeam', 'admin:titles.userTeam', async () => ({
    Component: (await import('./pages/RegisteredUsersPage')).RegisteredUsersPage,
  })),

  redirectTo('competition', 'qualification'),
  page('qualificationDraft', 'admin:titles.qualificationDraft', async () => ({
    Component: (await import('./team/TeamDraftsPage')).TeamDraftsPage,
  })),
  page('qualification', 'admin:titles.qualification', async () => ({
    Component: (await import('./team/TeamListPage')).TeamListPage,
  })),

  redirectTo('preliminary', 'preliminaryBox'),
  page('preliminaryBox', 'admin:titles.preliminaryBox', async () => ({
    Component: (await import('./prelim/PrelimDraftsPage')).PrelimDraftsPage,
  })),
  page('preliminarySearch', 'admin:titles.preliminarySearch', async () => ({
    Component: (await import('./prelim/PrelimListPage')).PrelimListPage,
  })),

  // The spec sends /admin/grade to /admin/grade/gradeManage, a path none of its pages has;
  // that path stands for the preliminary score query.
  redirectTo('grade', ADMIN_PATHS.gradeManage),
  redirectTo(ADMIN_PATHS.gradeManage, 'gradeManageGrade'),
  page('databaseExpert', 'admin:titles.databaseExpert', withNamespaces(['experts'], async () => ({
    Component: (await import('./experts/ExpertsPage')).ExpertsPage,
  }))),
  page('reviewGroup', 'admin:titles.reviewGroup', withNamespaces(['review'], async () => ({
    Component: (await import('./review/ReviewGroupsPage')).PrelimGroupsPage,
  }))),
  page('gradeManageGrade', 'admin:titles.gradeManageGrade', withNamespaces(['review'], async () => ({
    Component: (await import('./review/ScoresPage')).PrelimScoresPage,
  }))),
  page('scoringMonitoringExpert', 'admin:titles.scoringMonitoringExpert', withNamespaces(['review'], async () => ({
    Component: (await import('./review/MonitorPage')).PrelimMonitorPage,
  }))),

  // The page opens the promotion dialog of ./review, whose texts are in the review namespace.
  page('preliminaryAdminSearch', 'admin:titles.preliminaryAdminSearch', withNamespaces(['review'], async () => ({
    Component: (await import('./prelim/FinalListPage')).FinalListPage,
  }))),
  page('reviewAdminGroup', 'admin:titles.reviewAdminGroup', withNamespaces(['review'], async () => ({
    Component: (await import('./review/ReviewGroupsPage')).FinalGroupsPage,
  }))),
  page('gradeManageAdminGrade', 'admin:titles.gradeManageAdminGrade', withNamespaces(['review'], async () => ({
    Component: (await import('./review/ScoresPage')).FinalScoresPage,
  }))),
  page('scoringMonitoringAdminExpert', 'admin:titles.scoringMonitoringAdminExpert', withNamespaces(['review'], async () => ({
    Component: (await import('./review/MonitorPage')).FinalMonitorPage,
  }))),
  page('liveFinal', 'admin:titles.liveFinal', livePage('LiveSessionsPage')),

  // 结果公示: /admin/results opens its first permitted entry (the console's `*` route).
  page('resultPublish', 'admin:titles.resultPublish', withNamespaces(['results'], async () => ({
    Component: (await import('./results/ResultsPublishPage')).ResultsPublishPage,
  }))),
  page('appealManage', 'admin:titles.appealManage', withNamespaces(['results'], async () => ({
    Component: (await import('./results/AppealsPage')).AppealsPage,
  }))),
  page('scoreLog', 'admin:titles.scoreLog', withNamespaces(['scoreLog'], async () => ({
    Component: (await import('./score-log/ScoreLogPage')).ScoreLogPage,
  }))),
  // 证书与函件 (docs/certificates.md): templates, then issuing and the issued documents.
  page('certificateTemplate', 'admin:titles.certificateTemplate', withNamespaces(['certificates'], async () => ({
    Component: (await import('./certificates/CertificateTemplatesPage')).CertificateTemplatesPage,
  }))),
  page('certificateManage', 'admin:titles.certificateManage', withNamespaces(['certificates'], async () => ({
    Component: (await import('./certificates/CertificatesPage')).CertificatesPage,
  }))),

  page('siteContentManagement', 'admin:titles.siteContentManagement', withNamespaces(['newsAdmin'], async () => ({
    Component: (await import('./news/NewsListPage')).NewsListPage,
  }))),
  page('docManage', 'admin:titles.docManage', withNamespaces(['docsAdmin'], async () => ({
    Component: (await import('./documents/DocumentsPage')).DocumentsPage,
  }))),

  redirectTo('information', 'NoteManage'),
  page('NoteManage', 'admin:titles.noteManage', withNamespaces(['messaging'], async () => ({
    Component: (await import('./messaging/NoteManagePage')).NoteManagePage,
  }))),
  page('InMailManage', 'admin:titles.inMailManage', withNamespaces(['messaging'], async () => ({
    Component: (await import('./messaging/InMailManagePage')).InMailManagePage,
  }))),
  page('UserFeedback', 'admin:titles.userFeedback', async () => ({
    Component: (await import('./feedback/UserFeedbackPage')).UserFeedbackPage,
  })),

  page('UserManage', 'admin:titles.userAudit', async () => ({
    Component: (await import('./pages/AuditPage')).UserAuditPage,
  })),
  page('AdminManage', 'admin:titles.adminAudit', async () => ({
    Component: (await import('./pages/AuditPage')).AdminAuditPage,
  })),
  page('ExpertManage', 'admin:titles.expertAudit', async () => ({
    Component: (await import('./pages/AuditPage')).ExpertAuditPage,
  })),

  page('systemManage', 'admin:titles.systemManage', async () => ({
    Component: (await import('./pages/SystemAccountsPage')).SystemAccountsPage,
  })),
  page('roleManage', 'admin:titles.roleManage', async () => ({
    Component: (await import('./pages/RolesPage')).RolesPage,
  })),
  page('dataField', 'admin:titles.dataField', async () => ({
    Component: (await import('./pages/DataFieldPage')).DataFieldPage,
  })),
  page('systemSettings', 'admin:titles.systemSettings', async () => ({
    Component: (await import('./pages/ContestSettingsPage')).ContestSettingsPage,
  })),
  // docs/retention.md: retention periods and runs; participants' personal data requests.
  page('dataRetention', 'admin:titles.dataRetention', withNamespaces(['retention'], async () => ({
    Component: (await import('./retention/RetentionPage')).RetentionPage,
  }))),
  page('dataRequests', 'admin:titles.dataRequests', withNamespaces(['retention'], async () => ({
    Component: (await import('./retention/DataRequestsPage')).DataRequestsPage,
  }))),

  redirectTo('account', 'accountManage'),
  page('accountManage', 'admin:titles.accountManage', async () => ({
    Component: (await import('./pages/MyAccountPage')).MyAccountPage,
  })),

  // Detail pages (not in the menu).
  detail('/admin/preliminary-admin/detail/:id', 'preliminaryAdminSearch', 'admin:titles.preliminaryAdminDetail', async () => ({
    Component: (await import('./prelim/FinalDetailPage')).FinalDetailPage,
  })),
  detail('/admin/competition/grade-admin-detail/:id', 'gradeManageAdminGrade', 'admin:titles.gradeAdminDetail', withNamespaces(['review'], async () => ({
    Component: (await import('./review/ScoreDetailPage')).FinalScoreDetailPage,
  }))),
  detail('/admin/competition/scoring-monitoring-expert-admin-detail/:id', 'scoringMonitoringAdminExpert', 'admin:titles.scoringMonitoringExpertAdminDetail', withNamespaces(['review'], async () => ({
    Component: (await import('./review/MonitorDetailPage')).FinalMonitorDetailPage,
  }))),
  detail('/admin/competition/qualification-detail/:id', 'qualification', 'admin:titles.qualificationDetail', async () => ({
    Component: (await import('./team/TeamDetailPage')).TeamDetailPage,
  })),
  detail('/admin/competition/qualification-draft/:id', 'qualificationDraft', 'admin:titles.qualificationDraftDetail', async () => ({
    Component: (await import('./team/TeamDraftDetailPage')).TeamDraftDetailPage,
  })),
  detail('/admin/competition/qualification-audit', 'qualification', 'admin:titles.qualificationAudit', async () => ({
    Component: (await import('./team/TeamAuditPage')).TeamAuditPage,
  })),
  // The audit page with the id `queue` works through the submitted materials one after another.
  detail('/admin/preliminary/audit/:id', 'preliminarySearch', 'admin:titles.preliminaryAudit', async () => ({
    Component: (await import('./prelim/PrelimAuditPage')).PrelimAuditPage,
  })),
  detail('/admin/preliminary/detail/:id', 'preliminarySearch', 'admin:titles.preliminaryDetail', async () => ({
    Component: (await import('./prelim/PrelimDetailPage')).PrelimDetailPage,
  })),
  detail('/admin/preliminary/draft-detail/:id', 'preliminaryBox', 'admin:titles.preliminaryDraftDetail', async () => ({
    Component: (await import('./prelim/PrelimDraftDetailPage')).PrelimDraftDetailPage,
  })),
  detail('/admin/user/siteContentManagement-edit/:id?', 'siteContentManagement', 'admin:titles.siteContentEdit', withNamespaces(['newsAdmin'], async () => ({
    Component: (await import('./news/NewsEditPage')).NewsEditPage,
  }))),
  detail('/admin/user/siteContentManagement-detail/:id?', 'siteContentManagement', 'admin:titles.siteContentDetail', withNamespaces(['newsAdmin'], async () => ({
    Component: (await import('./news/NewsDetailPage')).NewsDetailPage,
  }))),
  detail('/admin/user/docManagement-edit/:id?', 'docManage', 'admin:titles.docEdit', withNamespaces(['docsAdmin'], async () => ({
    Component: (await import('./documents/DocumentEditPage')).DocumentEditPage,
  }))),
  // The home page blocks and /sign-guide: 内容管理 beside the news, so the news menu stays lit.
  detail('/admin/user/siteContentManagement-blocks', 'siteContentManagement', 'admin:titles.siteBlocks', withNamespaces(['docsAdmin'], async () => ({
    Component: (await import('./documents/SiteBlocksPage')).SiteBlocksPage,
  }))),
  detail('/admin/competition/grade-detail/:id', 'gradeManageGrade', 'admin:titles.gradeDetail', withNamespaces(['review'], async () => ({
    Component: (await import('./review/ScoreDetailPage')).PrelimScoreDetailPage,
  }))),
  // 评审质量 of each round, opened from its score query (judging-quality/, docs/rules/judging-quality.md).
  detail('/admin/grade/judging-quality', 'gradeManageGrade', 'admin:titles.judgingQuality', withNamespaces(['review'], async () => ({
    Component: (await import('./judging-quality/JudgingQualityPage')).PrelimJudgingQualityPage,
  }))),
  detail('/admin/grade/judging-quality-admin', 'gradeManageAdminGrade', 'admin:titles.judgingQualityAdmin', withNamespaces(['review'], async () => ({
    Component: (await import('./judging-quality/JudgingQualityPage')).FinalJudgingQualityPage,
  }))),
  detail('/admin/competition/scoring-monitoring-expert-detail/:id', 'scoringMonitoringExpert', 'admin:titles.scoringMonitoringExpertDetail', withNamespaces(['review'], async () => ({
    Component: (await import('./review/MonitorDetailPage')).PrelimMonitorDetailPage,
  }))),
  // The decision panel picks re-review experts with the review pages' picker (review texts).
  detail('/admin/results/appeals/:id', 'appealManage', 'admin:titles.appealDetail', withNamespaces(['results', 'review'], async () => ({
    Component: (await import('./results/AppealDetailPage')).AppealDetailPage,
  }))),

  // A certificate template's editor; the id `new` opens an empty one (docs/certificates.md, "Templates").
  detail(`${P.certificateTemplate}/:id`, 'certificateTemplate', 'admin:titles.certificateTemplateEdit', withNamespaces(['certificates'], async () => ({
    Component: (await import('./certificates/TemplateEditorPage')).TemplateEditorPage,
  }))),

  // 现场答辩: a session's planning page, its printable running order and the chair's console.
  detail(`${P.liveFinal}/:id`, 'liveFinal', 'admin:titles.liveSession', livePage('LiveSessionPage')),
  detail(`${P.liveFinal}/:id/running-order`, 'liveFinal', 'admin:titles.liveRunningOrder', livePage('RunningOrderPage')),
  detail(`${P.liveFinal}/:id/chair`, 'liveFinal', 'admin:titles.liveChair', livePage('LiveChairPage')),

  // Any other /admin path: a menu group's own path (/admin/system, /admin/final...) opens its
  // first permitted entry, from the menus the server sent; the rest is a 404 inside the console.
  { path: '*', lazy: consoleNotFound },
];

export const adminRoutes: RouteObject[] = [
  {
    path: ADMIN_PATHS.root,
    children: [
      {
        path: ADMIN_PATHS.login,
        handle: { title: 'admin:titles.login', noLogin: true } satisfies ConsoleRouteHandle,
        lazy: withNamespaces(['admin'], async () => ({
          Component: (await import('./pages/AdminLoginPage')).AdminLoginPage,
        })),
      },
      {
        // Outside the console: a password set by someone else opens nothing else (docs/security.md).
        path: ADMIN_PATHS.changePassword,
        handle: { title: 'admin:titles.changePassword' } satisfies ConsoleRouteHandle,
        loader: requireStaffLogin('ADMIN'),
        lazy: withNamespaces(['admin'], async () => ({
          Component: (await import('./pages/AdminChangePasswordPage')).AdminChangePasswordPage,
        })),
      },
      {
        // The console's texts come with its layout (the page chunks wait for both).
        lazy: withNamespaces(['admin', 'files'], async () => ({
          Component: (await import('./AdminLayout')).AdminLayout,
        })),
        children: guardRoutes(consoleRoutes, requireStaffLogin('ADMIN')),
      },
    ],
  },
];
