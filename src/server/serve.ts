import { buildApp } from './app.ts';
import { firstRun } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { ensurePlaygroundAtStart } from './demo/playground.ts';
import { warmUp } from './http/lazy-compilers.ts';

/**
 * Start the server: build the app, first run or playground top-up, listen, warm the route schemas up,
 * start the schedules. `started` is called once the start's allocations are done (the warm-up ended).
 */
export async function serve(started: () => void = () => {}): Promise<void> {
  // Milestones since the process started (ms), logged with "server ready".
  const startup: Record<string, number> = { loaded: Math.round(performance.now()) };
  const config = loadConfig();
  const app = await buildApp(config);
  startup.built = Math.round(performance.now());

  let created: Awaited<ReturnType<typeof firstRun>>;
  try {
    created = await firstRun(app);
  } catch (err) {
    app.log.error((err as Error).message);
    await app.close();
    process.exit(1);
  }

  // The demo project gets the playground apps added since it was made (each app loads once).
  if (!created)
    await ensurePlaygroundAtStart(app).catch((err: unknown) =>
      app.log.error({ err }, 'playground apps could not be loaded'),
    );
  startup.firstRun = Math.round(performance.now());
  await app.listen({ port: config.port, host: config.host });
  startup.listening = Math.round(performance.now());
  // Route schemas not yet needed by a request compile now, in slices between requests.
  const warming = new AbortController();
  const onError = (err: unknown) => app.log.error({ err }, 'route schema failed to compile');
  void warmUp(onError, warming.signal).finally(started);
  // Scheduled tasks fire from every process; each fire is claimed by one of them (schedule/README.md).
  await app.scheduler.start();
  const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
  app.log.info({ url, database: app.database.dialect, startup }, 'server ready');
  if (created) {
    // Printed once, on the first start of an empty data folder.
    const lines = [
      '',
      '  First run: created the owner account and a demo project.',
      `  Open      ${url}`,
      `  Account   ${created.account}`,
      `  Password  ${created.generated ? created.password : '(from ADMIN_PASSWORD)'}`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    warming.abort();
    app.log.info({ signal }, 'shutting down');
    // Fastify stops accepting, lets in-flight requests finish, then runs onClose (database last).
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
