/** The expert area's paths for its pages (defined in routes.ts, which the router loads eagerly). */
export { EXPERT_PATHS, ROUND_PAGES, detailPath, type RoundPages } from './routes';
