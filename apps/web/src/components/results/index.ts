/**
 * Views of published results (公示) and appeals shared by the admin console and the participant
 * pages (docs/rules/results.md): the countdown of a period on the server's clock, outcome / appeal / movement
 * tags, and the translation of the shared Chinese texts (RESULTS_MSG). Texts: `results` namespace
 * (loaded by the routes that show these).
 */
export { periodLeft, useServerClock, type PeriodLeft } from './period';
export { PeriodCountdown, type PeriodCountdownProps } from './PeriodCountdown';
export { AppealStatusTag, MovementTag, OutcomeTag } from './ResultTags';
export { useResultsMessage, useResultsText } from './results-text';
