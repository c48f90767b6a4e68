import { ConfigError, loadConfig, loadDotEnv, type AppConfig } from './config/config.js';
import { buildApp } from './app.js';
import { printSeedResult, seedAtStartup } from './startup.js';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const app = await buildApp(config);
  printSeedResult(await seedAtStartup(app, process.argv.includes('--demo')));

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const shown = config.publicUrl ?? `http://localhost:${(app.server.address() as { port: number }).port}`;
  console.log(`\n  2025全国智慧医保大赛 portal is running at ${shown}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `Failed to start: ${err.message}` : err);
  process.exit(1);
});
