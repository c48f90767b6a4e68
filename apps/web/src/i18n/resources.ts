import type { Locale } from '@contest/shared';
import zhCommon from './locales/zh-cn/common.json';
import zhSite from './locales/zh-cn/site.json';
import zhParticipant from './locales/zh-cn/participant.json';
import zhAdmin from './locales/zh-cn/admin.json';
import zhExpert from './locales/zh-cn/expert.json';
import zhFiles from './locales/zh-cn/files.json';
import zhSignup from './locales/zh-cn/signup.json';
import zhReview from './locales/zh-cn/review.json';
import zhExperts from './locales/zh-cn/experts.json';
import zhDocsAdmin from './locales/zh-cn/docsAdmin.json';
import zhNewsAdmin from './locales/zh-cn/newsAdmin.json';
import zhMessaging from './locales/zh-cn/messaging.json';
import zhScoreLog from './locales/zh-cn/scoreLog.json';
import zhResults from './locales/zh-cn/results.json';
import zhLiveAdmin from './locales/zh-cn/liveAdmin.json';
import zhLive from './locales/zh-cn/live.json';
import zhCertificates from './locales/zh-cn/certificates.json';
import zhRetention from './locales/zh-cn/retention.json';
import enCommon from './locales/en/common.json';
import enSite from './locales/en/site.json';
import enParticipant from './locales/en/participant.json';
import enAdmin from './locales/en/admin.json';
import enExpert from './locales/en/expert.json';
import enFiles from './locales/en/files.json';
import enSignup from './locales/en/signup.json';
import enReview from './locales/en/review.json';
import enExperts from './locales/en/experts.json';
import enDocsAdmin from './locales/en/docsAdmin.json';
import enNewsAdmin from './locales/en/newsAdmin.json';
import enMessaging from './locales/en/messaging.json';
import enScoreLog from './locales/en/scoreLog.json';
import enResults from './locales/en/results.json';
import enLiveAdmin from './locales/en/liveAdmin.json';
import enLive from './locales/en/live.json';
import enCertificates from './locales/en/certificates.json';
import enRetention from './locales/en/retention.json';

/** Chinese is the source language: its files define the keys every locale must provide. */
export const zhCnResources = {
  common: zhCommon,
  site: zhSite,
  participant: zhParticipant,
  admin: zhAdmin,
  expert: zhExpert,
  files: zhFiles,
  signup: zhSignup,
  review: zhReview,
  experts: zhExperts,
  docsAdmin: zhDocsAdmin,
  newsAdmin: zhNewsAdmin,
  messaging: zhMessaging,
  scoreLog: zhScoreLog,
  results: zhResults,
  liveAdmin: zhLiveAdmin,
  live: zhLive,
  certificates: zhCertificates,
  retention: zhRetention,
};

export type AppResources = typeof zhCnResources;

// Typed against the Chinese shape so a key missing from English fails type-checking.
const enResources: AppResources = {
  common: enCommon,
  site: enSite,
  participant: enParticipant,
  admin: enAdmin,
  expert: enExpert,
  files: enFiles,
  signup: enSignup,
  review: enReview,
  experts: enExperts,
  docsAdmin: enDocsAdmin,
  newsAdmin: enNewsAdmin,
  messaging: enMessaging,
  scoreLog: enScoreLog,
  results: enResults,
  liveAdmin: enLiveAdmin,
  live: enLive,
  certificates: enCertificates,
  retention: enRetention,
};

export const resources: Record<Locale, AppResources> = {
  'zh-cn': zhCnResources,
  en: enResources,
};

// Every namespace's texts in both languages: for tests and type-checking only. The app loads
// them through ./index (the public site's with the first load, the others with their area).
export { DEFAULT_NS, NAMESPACES } from './namespaces';
