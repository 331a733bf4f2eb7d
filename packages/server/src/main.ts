import { loadConfig, ConfigError } from './config.ts';
import { openStore } from './store/open-store.ts';
import { buildApp } from './app.ts';
import { redisLimiter } from './infra/limiter/redis.ts';
import { localLimiter } from './infra/limiter/local.ts';
import { localBus } from './infra/bus/local.ts';
import { redisBus } from './infra/bus/redis.ts';
import { countOperators, ensureOperator } from './admin/operators.ts';
import { newSetupToken } from './admin/setup.ts';
import { shutdown } from './operations/shutdown.ts';

/** config → store → app → listen; graceful shutdown on SIGTERM/SIGINT (operations/shutdown.ts). */
async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, config.storeTimeouts);
  const limiter = config.redisUrl ? redisLimiter(config.redisUrl) : localLimiter();
  const bus = config.redisUrl ? redisBus(config.redisUrl) : localBus();
  await limiter.health?.settled;
  const setupToken = newSetupToken();
  const app = await buildApp({ config, store, limiter, bus, setupToken });

  if (config.adminEmail && config.adminPassword) {
    if (await ensureOperator(store, config.adminEmail, config.adminPassword))
      app.log.info({ email: config.adminEmail }, 'created the operator from SVC_ADMIN_EMAIL');
  }
  await app.listen({ port: config.port, host: config.host });
  const store_ = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl : 'PostgreSQL';
  app.log.info(
    `svc listening on ${config.host}:${config.port}; dashboard ${config.publicUrl}/, API ${config.publicUrl}/v1, reference ${config.publicUrl}/docs (store: ${store_}${config.redisUrl ? ', Redis' : ''})`,
  );
  if ((await countOperators(store)) === 0) printFirstRun(config.publicUrl, setupToken);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    process.exit(await shutdown(app, [() => limiter.close(), () => bus.close(), () => store.close()]));
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * The first-run instructions, as plain lines on stdout beside the JSON log: the setup token on a
 * line of its own, readable in a terminal and copyable from a log file (inside a JSON log line it
 * would sit in an escaped string). Printed only while no operator exists; the token is for this
 * process only, and whoever reads this output may claim the instance.
 */
function printFirstRun(publicUrl: string, setupToken: string): void {
  process.stdout.write(
    [
      '',
      `svc: no operator yet. Open the dashboard at ${publicUrl}/ and enter this one-time setup token:`,
      '',
      `    ${setupToken}`,
      '',
      'or, from a shell:',
      '    npx svc operator create --email you@example.com        # asks for the password',
      '    npx svc database create --name my-app                  # prints its secret key (once) and its public key',
      'or start with SVC_ADMIN_EMAIL and SVC_ADMIN_PASSWORD set.',
      '',
      '',
    ].join('\n'),
  );
}

main().catch((e) => {
  if (e instanceof ConfigError) console.error(`svc: ${e.message}`);
  else console.error(e);
  process.exit(1);
});
