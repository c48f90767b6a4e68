/**
 * The SQL statements a database client is sent, recorded between start() and stop(): how a bench
 * checks that a hand-written ceiling server runs exactly the statements of the portal. Works on
 * what drizzle holds as `$client` (a pg Pool or a PGlite), whose `query` every statement of the
 * hot path goes through (transactions take a pooled client and are not seen).
 */
export interface Statement {
  text: string;
  /** Name of a server-side prepared statement (pg), when there is one. */
  name?: string;
}

interface Queryable {
  query: (...args: never[]) => unknown;
}

function statementOf(args: unknown[]): Statement {
  const [first] = args;
  if (typeof first === 'string') return { text: first };
  const config = first as { text: string; name?: string };
  return config.name ? { text: config.text, name: config.name } : { text: config.text };
}

export function captureStatements(client: Queryable): { start(): void; stop(): Statement[] } {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  let seen: Statement[] | null = null;
  client.query = ((...args: unknown[]) => {
    seen?.push(statementOf(args));
    return original(...args);
  }) as Queryable['query'];
  return {
    start: () => {
      seen = [];
    },
    stop: () => {
      const out = seen ?? [];
      seen = null;
      return out;
    },
  };
}

/** Differences between two statement lists, in order; empty when the same. */
export function statementDiff(expected: Statement[], actual: Statement[]): string[] {
  const out: string[] = [];
  const show = (s: Statement | undefined) => (s ? `${s.name ? `[${s.name}] ` : ''}${s.text}` : '(none)');
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const a = expected[i];
    const b = actual[i];
    if (a?.text !== b?.text || a?.name !== b?.name) out.push(`#${i + 1}\n  portal:  ${show(a)}\n  ceiling: ${show(b)}`);
  }
  return out;
}
