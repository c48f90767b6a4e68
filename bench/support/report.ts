/** How benches print: markdown tables (pasted into docs/performance.md) and the machine's load. */
import { loadavg } from 'node:os';

export function markdown(headers: string[], rows: Array<Array<string | number>>): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Load average over 1, 5 and 15 minutes: figures taken under load are lower bounds. */
export const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
