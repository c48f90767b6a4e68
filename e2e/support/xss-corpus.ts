import { NEUTRALISED, XSS_CORPUS } from '../../apps/server/test/xss-corpus.js';

export { NEUTRALISED, XSS_CORPUS, type CorpusEntry } from '../../apps/server/test/xss-corpus.js';

/** Every payload once (the two lists share a few). */
export const ALL_PAYLOADS: string[] = [...new Set([...NEUTRALISED, ...XSS_CORPUS].map(([input]) => input))];
