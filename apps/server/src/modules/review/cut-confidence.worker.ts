/**
 * The thread that runs a bootstrap of the confidence on the cut (cut-confidence-runner.ts): one
 * computation per thread, its input in `workerData`, its answer posted back once. Bundled as its
 * own entry (build.mjs `cut-confidence-worker`); from source it runs through tsx's loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { cutConfidence, type CutConfidenceInput } from '@contest/shared';

try {
  parentPort!.postMessage({ value: cutConfidence(workerData as CutConfidenceInput) });
} catch (err) {
  parentPort!.postMessage({ error: String((err as Error)?.message ?? err) });
}
