/**
 * Summarises a V8 CPU profile (from BENCH_CPU_PROF or node --cpu-prof): self time by function,
 * grouped by where the function lives, for the busiest window of the run.
 *
 *   node --import tsx bench/support/cpu-profile-top.ts <file.cpuprofile> [--top 25] [--busiest 5]
 *
 * --from A --to B (seconds) keeps that window; --timeline prints the busy share of each second;
 * --busiest S keeps only the S seconds with the fewest idle samples (the load, not start-up).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, busiest: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, timeline: { type: 'boolean' } },
});
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

// Sample times in seconds from the start of the profile.
let t = 0;
const times = profile.timeDeltas.map((d) => (t += d) / 1e6);
const isIdle = (id: number) => byId.get(id)!.callFrame.functionName === '(idle)';

let from = Number(values.from ?? 0);
let to = values.to ? Number(values.to) : Infinity;
if (values.timeline) {
  // Busy share of each second, to choose --from/--to around the load.
  const busy: number[] = [];
  const all: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const s = Math.floor(times[i]!);
    all[s] = (all[s] ?? 0) + 1;
    if (!isIdle(profile.samples[i]!)) busy[s] = (busy[s] ?? 0) + 1;
  }
  console.log(all.map((n, s) => `${s}s ${Math.round((100 * (busy[s] ?? 0)) / n)}%`).join('  '));
}
if (values.busiest) {
  const width = Number(values.busiest);
  const last = times[times.length - 1] ?? 0;
  let best = { from: 0, busy: -1 };
  for (let start = 0; start + width <= last + 1e-9; start += 0.25) {
    let busy = 0;
    for (let i = 0; i < times.length; i++) if (times[i]! >= start && times[i]! < start + width && !isIdle(profile.samples[i]!)) busy++;
    if (busy > best.busy) best = { from: start, busy };
  }
  from = best.from;
  to = best.from + width;
}

const where = (n: Node) => {
  const url = n.callFrame.url;
  if (!url) return n.callFrame.functionName; // (garbage collector), (program), (idle)
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(/.*\/(apps|packages|bench)\//, '$1/');
};

const self = new Map<string, number>();
const groups = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if (times[i]! < from || times[i]! >= to) continue;
  const n = byId.get(profile.samples[i]!)!;
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1e6;
  total += dt;
  const key = `${n.callFrame.functionName || '(anonymous)'}  ${where(n)}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  groups.set(where(n), (groups.get(where(n)) ?? 0) + dt);
}
const pct = (v: number) => `${((100 * v) / total).toFixed(1)}%`.padStart(6);
console.log(`window ${from.toFixed(2)}-${Number.isFinite(to) ? to.toFixed(2) : 'end'} s, ${total.toFixed(2)} s sampled`);
console.log('\nby place:');
for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(v)}  ${k}`);
console.log('\nby function (self):');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${pct(v)}  ${k}`);
