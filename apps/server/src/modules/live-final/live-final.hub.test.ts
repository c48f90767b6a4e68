import { describe, expect, it } from 'vitest';
import { createSharedReads } from './live-final.hub.js';

/** A read the test finishes by hand, counting how often it started. */
function controlledRead() {
  let started = 0;
  const finishers: ((v: string) => void)[] = [];
  const read = () => {
    started++;
    return new Promise<string>((resolve) => finishers.push(resolve));
  };
  return { read, started: () => started, finish: (v: string) => finishers.shift()!(v) };
}

describe('shared reads of one session', () => {
  it('callers of one generation share the read in flight; a change starts a new one; a finished read is never reused', async () => {
    let generation = 0;
    const share = createSharedReads<string>({ generation: () => generation });
    const r = controlledRead();

    const a = share('s1', 'context', r.read);
    const b = share('s1', 'context', r.read);
    expect(r.started()).toBe(1);
    // Another session, another key: reads of their own.
    void share('s2', 'context', r.read);
    void share('s1', 'link:x', r.read);
    expect(r.started()).toBe(3);

    // A change arrives while the first read is in flight: it may predate the change, so the
    // feeds that react to the change read again.
    generation++;
    const c = share('s1', 'context', r.read);
    expect(r.started()).toBe(4);

    r.finish('old');
    r.finish('s2');
    r.finish('link');
    r.finish('new');
    expect(await a).toBe('old');
    expect(await b).toBe('old');
    expect(await c).toBe('new');

    // Finished: the next caller reads afresh (a snapshot carries the server's time).
    void share('s1', 'context', r.read);
    expect(r.started()).toBe(5);
  });

  it('a failed read is not kept either', async () => {
    const share = createSharedReads<string>({ generation: () => 0 });
    let calls = 0;
    await expect(share('s', 'k', async () => {
      calls++;
      throw new Error('down');
    })).rejects.toThrow('down');
    await expect(share('s', 'k', async () => `ok${++calls}`)).resolves.toBe('ok2');
  });
});
