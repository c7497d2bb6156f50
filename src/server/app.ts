import path from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { E } from '../shared/errors.ts';
import accessPlugin from './access/plugin.ts';
import roleJoinPlugin from './access/role-join-plugin.ts';
import roleTablesPlugin from './access/role-tables-plugin.ts';
import authPlugin from './account/auth.ts';
import accountPlugin from './account/plugin.ts';
import { LogSmsProvider, type OutboxEntry, type SmsProvider } from './account/sms.ts';
import featureGuard from './admin/feature-guard.ts';
import featuresPlugin from './admin/features-plugin.ts';
import { type Config, jssdkScripts } from './config.ts';
import appRecordsPlugin from './data/app-records-plugin.ts';
import { AutoIndexer, registerAutoIndex } from './data/auto-index.ts';
import indexPlugin from './data/index-plugin.ts';
import { clearMetaCache } from './data/meta.ts';
import type { RecordTriggers } from './data/record-hooks.ts';
import recordsPlugin from './data/records-plugin.ts';
import schemaPlugin from './data/schema-plugin.ts';
import viewPlugin from './data/view-plugin.ts';
import { announced, closeWriteClock, connectWriteClock } from './data/write-clock.ts';
import xlsxPlugin from './data/xlsx/plugin.ts';
import datasetAdminPlugin from './dataset/admin-plugin.ts';
import datasetAppPlugin from './dataset/app-plugin.ts';
import { type Database, openDatabase } from './db/index.ts';
import playgroundPlugin from './demo/playground-plugin.ts';
import { loadAppShell } from './http/app-shell.ts';
import envelopePlugin from './http/envelope.ts';
import errorsPlugin, { frameworkErrors } from './http/errors.ts';
import { lazyCompilers } from './http/lazy-compilers.ts';
import { loggerOptions } from './http/log-redact.ts';
import { installNativeEnvelope } from './http/native-envelope.ts';
import { schemasPlugin } from './http/schemas.ts';
import securityHeadersPlugin, { appShellHeaders } from './http/security-headers.ts';
import i18nPlugin from './i18n/plugin.ts';
import memberPlugin from './member/plugin.ts';
import { ProjectCaches } from './ops/caches.ts';
import deployPlugin from './ops/deploy-plugin.ts';
import { installHealth } from './ops/health.ts';
import metricsPlugin from './ops/metrics.ts';
import pagePlugin from './page/plugin.ts';
import paymentPlugin from './payment/plugin.ts';
import printPlugin from './print/plugin.ts';
import programAdminPlugin from './program/admin-plugin.ts';
import programAppPlugin from './program/app-plugin.ts';
import { clearRunCache } from './program/run-cache.ts';
import { recordTriggers } from './program/triggers.ts';
import projectPlugin from './project/plugin.ts';
import transferPlugin from './project/transfer-plugin.ts';
import { installRealtime, type RealtimeOptions } from './realtime/index.ts';
import routePlugin from './route/plugin.ts';
import { ScheduleEngine } from './schedule/engine.ts';
import schedulePlugin from './schedule/plugin.ts';
import { runTask } from './schedule/run-task.ts';
import sharePlugin from './share/plugin.ts';
import lbsPlugin from './third/lbs-plugin.ts';
import thirdPlugin from './third/plugin.ts';
import utilPlugin from './util/plugin.ts';
import projectToolsPlugin from './util/project-tools-plugin.ts';
import toolsPlugin from './util/tools-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    sms: SmsProvider;
    /** Codes sent in test mode (empty otherwise). */
    smsOutbox: OutboxEntry[];
    /** Present only in test mode: what end-to-end tests may peek at. */
    testHooks: { captchas: Map<string, string> } | null;
    /** Per-project server caches, cleared on demand on every process (ops/caches.ts). */
    projectCaches: ProjectCaches;
    /** Indexes built for recurring slow query shapes (data/auto-index.ts). */
    autoIndex: AutoIndexer;
    /** The programs record writes trigger (program/triggers.ts), handed to the data calls' writes. */
    recordTriggers: RecordTriggers;
    /** This process's schedule engine; `main.ts` starts it (tests start their own when they need one). */
    scheduler: ScheduleEngine;
  }
}

export interface BuildOptions {
  /** An open database to use instead of opening one from the config (tests share one). */
  database?: Database;
  /** Log to stdout (default: on unless testing). */
  logger?: boolean;
  /** Write the log here instead of stdout (tests read what was logged). */
  logStream?: NodeJS.WritableStream;
  /** Tuning of the real-time channels (tests and benchmarks shorten the idle unload). */
  realtime?: Partial<RealtimeOptions>;
}

/** Build the app: every area registered, nothing listening. Tests call `app.inject()` on it. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  installNativeEnvelope();
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors,
    // Route schemas compile on first use (and in the background once listening): see lazy-compilers.ts.
    schemaController: {
      compilersFactory: lazyCompilers,
    },
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: true,
        useDefaults: true,
        allErrors: false,
        allowUnionTypes: true,
      },
    },
  });

  const database =
    options.database ??
    (await openDatabase({
      url: config.databaseUrl,
      schema: config.databaseSchema,
      file: path.join(config.dataDir, 'app.db'),
    }));
  app.decorate('config', config);
  app.decorate('database', database);
  if (!options.database) {
    app.addHook('onClose', async () => {
      await database.close();
    });
  }

  const sms = new LogSmsProvider(app.log, config.testOutbox);
  app.decorate('sms', sms as SmsProvider);
  app.decorate('smsOutbox', sms.outbox);
  app.decorate('testHooks', config.testOutbox ? { captchas: new Map<string, string>() } : null);
  const caches = new ProjectCaches();
  caches.register('tableMeta', (project) => clearMetaCache(database.db, project));
  caches.register('programRun', (project) => clearRunCache(database.db, project));
  if (config.redisUrl) await caches.connect(config.redisUrl);
  if (config.redisUrl) {
    await connectWriteClock(config.redisUrl);
    app.addHook('onClose', async () => closeWriteClock());
    // An answer leaves once its writes' versions reached Redis: the client's next call, on any
    // process, sees them (write-clock.ts). Callback style, nothing pending costs no promise.
    app.addHook('onSend', (_request, _reply, payload, done) => {
      const wait = announced();
      if (!wait) return done(null, payload);
      wait.then(() => done(null, payload));
    });
  }
  app.decorate('projectCaches', caches);
  const autoIndex = new AutoIndexer(database, config.autoIndex, (err) =>
    app.log.warn({ err }, 'managed index'),
  );
  registerAutoIndex(database.db, autoIndex);
  app.decorate('autoIndex', autoIndex);
  autoIndex.start();
  // Older tables' missing default indexes, built in the background once the app is up.
  app.addHook('onReady', async () => {
    autoIndex.backfillDefaults().catch((err) => app.log.warn({ err }, 'default index backfill'));
  });
  app.addHook('preClose', async () => autoIndex.close());
  app.decorate('recordTriggers', recordTriggers(app));
  app.addHook('onClose', async () => caches.close());
  const scheduler = new ScheduleEngine(database, {
    run: (taskId) => runTask(app, taskId),
    redisUrl: config.redisUrl,
    onError: (err, where) => app.log.error({ err, where }, 'schedule engine'),
  });
  app.decorate('scheduler', scheduler);
  // Before the database closes (hooks run in order of registration when it is ours: this one is later).
  app.addHook('preClose', async () => scheduler.stop());

  // A keep-alive socket still busy when close() began would then idle for Fastify's keepAliveTimeout
  // (72 s), holding close() and the database's onClose past any shutdown deadline: answers given
  // while closing end their connection.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style: this runs on every answer, so it should not cost a promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Cross-cutting pieces (named; every area plugin declares them as dependencies, plugin-kit.ts).
  await app.register(errorsPlugin);
  // Before the routes: the latency hook sees every one of them.
  await app.register(metricsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(envelopePlugin);
  await app.register(authPlugin);
  await app.register(schemasPlugin);

  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifySwagger, {
    // Shared schemas (http/schemas.ts) appear under their own names in components.schemas.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      info: {
        title: 'Low-code builder API',
        version: '0.1.0',
        description:
          'Answers are `{ error: 0, data }` or `{ error: code, msg }`. Bodies may be sealed as `{ encrypted }` ' +
          '(gzip, then AES-128-GCM under an HKDF-SHA256 key from the `token` header); such requests, and ' +
          'requests with `x-envelope: 1`, get `{ error: 0, encrypted }` answers. See README.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
      security: [{ token: [] }],
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  // Before any area: it adds its check to the routes of switched-off features as they are declared.
  await app.register(featureGuard);
  await app.register(accountPlugin);
  await app.register(projectPlugin);
  await app.register(transferPlugin);
  await app.register(schemaPlugin);
  await app.register(recordsPlugin);
  await app.register(appRecordsPlugin);
  await app.register(viewPlugin);
  await app.register(indexPlugin);
  await app.register(accessPlugin, { prefix: '/api/admin/auth' });
  await app.register(memberPlugin);
  await app.register(roleJoinPlugin);
  await app.register(roleTablesPlugin);
  await app.register(routePlugin);
  await app.register(pagePlugin);
  await app.register(sharePlugin, { prefix: '/api/app/share' });
  await app.register(programAdminPlugin, { prefix: '/api/admin/flow/:project' });
  await app.register(programAppPlugin, { prefix: '/api/common/program/:project' });
  await app.register(datasetAdminPlugin, { prefix: '/api/admin/dataset/:project' });
  await app.register(datasetAppPlugin, { prefix: '/api/app/ds/:project' });
  await app.register(schedulePlugin, { prefix: '/api/admin/schedule/:project' });
  await app.register(xlsxPlugin);
  await app.register(utilPlugin);
  // Several URL bases (oauth/id, /api/third/weixin/…): full paths in the plugin.
  await app.register(thirdPlugin);
  await app.register(toolsPlugin);
  await app.register(projectToolsPlugin);
  await app.register(printPlugin);
  await app.register(lbsPlugin);
  await app.register(paymentPlugin);
  await app.register(i18nPlugin);
  await app.register(deployPlugin);
  await app.register(featuresPlugin);
  await app.register(playgroundPlugin);
  await installRealtime(app, options.realtime);

  app.get('/api/health', { schema: { hide: true } }, async () => ({ error: 0, data: { ok: true } }));
  installHealth(app);

  const shell = loadAppShell(config.clientDir);
  const hasClient = shell !== null;
  // The messaging apps' JS-SDK scripts (when configured) may load in the app shell.
  const scripts = jssdkScripts(config);
  const shellHeaders = appShellHeaders([...(scripts.weixin ? [scripts.weixin] : []), ...scripts.wxwork]);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      index: false,
      // Built assets carry a content hash in their names: cached for good; anything else revalidates.
      setHeaders(reply, file) {
        const rel = path.relative(config.clientDir, file);
        reply.header(
          'cache-control',
          rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (
      hasClient &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api/') &&
      !url.startsWith('/io/') &&
      // A missing asset (a file name with an extension) is a 404, not the app shell.
      !/\.[A-Za-z0-9]+$/.test(url.split('?')[0]!)
    ) {
      // History-API fallback: every client route answers the app shell.
      return reply
        .headers(shellHeaders)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(shell.html(url.split('?')[0]!));
    }
    return reply
      .status(404)
      .send({ error: E.NOT_FOUND.code, msg: `${E.NOT_FOUND.msg}: ${request.method} ${url.split('?')[0]}` });
  });

  return app;
}
