import type { AppDeps } from '../../app-deps.js';

export interface HealthReport {
  ok: boolean;
  database: 'ok' | 'down';
  databaseKind: string;
  redis: 'ok' | 'down' | 'disabled';
  uptimeSeconds: number;
}

const TIMEOUT_MS = 2000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);
}

export async function checkHealth(deps: AppDeps): Promise<HealthReport> {
  const [database, redis] = await Promise.all([
    within(deps.database.ping(), TIMEOUT_MS).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    deps.redis
      ? within(deps.redis.ping(), TIMEOUT_MS).then(
          () => 'ok' as const,
          () => 'down' as const,
        )
      : Promise.resolve('disabled' as const),
  ]);
  return {
    ok: database === 'ok' && redis !== 'down',
    database,
    databaseKind: deps.database.kind,
    redis,
    uptimeSeconds: Math.round(process.uptime()),
  };
}
