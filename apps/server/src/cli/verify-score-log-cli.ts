import { SCORE_LOG_ANCHOR_BREAK_NAMES, SCORE_LOG_BREAK_NAMES, SCORE_LOG_DIFFERENCE_NAMES } from '@contest/shared';
import { ConfigError, loadConfig, loadDotEnv } from '../config/config.js';
import { verifyScoreLog } from '../modules/score-log/score-log.js';
import { openDatabase } from '../db/client.js';

/**
 * `npm run verify-score-log [-- --json] [-- --batch N]`: recomputes the whole 评分存证 chain
 * (docs/security.md), checks it against the heads published with the 公示 notices and every score sheet
 * against its last entry (docs/security.md), on the configured database (DATABASE_URL, else the embedded one under DATA_DIR;
 * the server must be stopped for the embedded one, which one process owns at a time).
 *
 * Exit status: 0 intact, 1 broken or different (the first broken entry, published head and sheet
 * difference are printed),
 * 2 the check could not run (configuration, connection, no score_log table). Reads only: it
 * neither migrates nor writes.
 */
async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const at = argv.indexOf('--batch');
  const batch = at >= 0 ? Number(argv[at + 1]) : undefined;
  if (batch !== undefined && !(Number.isInteger(batch) && batch > 0)) throw new ConfigError('--batch must be a positive integer');
  loadDotEnv();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const started = performance.now();
    const result = await verifyScoreLog(database.db, batch ? { batch } : {});
    const tookMs = Math.round(performance.now() - started);
    if (json) {
      console.log(JSON.stringify({ ...result, tookMs }));
    } else {
      console.log(`Score log (评分存证) on ${database.kind}: ${result.count} entries, last seq ${result.lastSeq}, ${tookMs} ms`);
      console.log(`  last hash: ${result.lastHash}`);
      const b = result.firstBroken;
      const a = result.anchors.firstMismatch;
      const d = result.live.firstDifference;
      console.log(`  published heads: ${result.anchors.count}; score sheets compared: ${result.live.sheets}`);
      if (result.ok) console.log('  OK: the chain is intact (every hash, link and seq), matches every published head, and every sheet matches its last entry.');
      if (b) {
        console.log(`  BROKEN at seq ${b.seq}: ${b.reason} (${SCORE_LOG_BREAK_NAMES[b.reason]})`);
        console.log(`    expected: ${b.expected}`);
        console.log(`    found:    ${b.found}`);
      }
      if (a) {
        console.log(`  PUBLISHED HEAD ${a.round} version ${a.version} (seq ${a.seq}): ${a.reason} (${SCORE_LOG_ANCHOR_BREAK_NAMES[a.reason]})`);
        console.log(`    published:  ${a.expected}`);
        console.log(`    recomputed: ${a.found}`);
      }
      if (d) {
        console.log(`  LIVE DATA DIFFERS: ${d.reason} (${SCORE_LOG_DIFFERENCE_NAMES[d.reason]})`);
        console.log(`    sheet ${d.sheetId}, project ${d.projectId}${d.projectName ? ` (${d.projectName})` : ''}, expert ${d.expertCode || d.expertId}, field ${d.field}`);
        console.log(`    log (seq ${d.seq ?? '-'}): ${d.expected || '-'}`);
        console.log(`    now:        ${d.found || '-'}`);
      }
    }
    return result.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Drizzle wraps the database's error ("Failed query: …") and keeps it as the cause.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : '';
    const text = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    const missing = /relation "score_log" does not exist/.test(`${text} ${cause}`);
    console.error(missing ? 'No score log in this database (start the server once to migrate it).' : [text, cause].filter(Boolean).join(': '));
    process.exit(2);
  },
);
