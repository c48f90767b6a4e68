/** The live final's console pages, loaded as one chunk by the admin routes (routes.ts, livePage). */
export { LiveSessionsPage } from './LiveSessionsPage';
export { LiveSessionPage } from './LiveSessionPage';
export { RunningOrderPage } from './RunningOrderPage';
export { LiveChairPage } from './LiveChairPage';
