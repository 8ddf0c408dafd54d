import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { ConfigError, loadConfig, type Config } from '@risk/common/config';
import { redact } from '@risk/common/observability';
import { ensureLocalTls, trustInstructions } from '@risk/common/tls';
import { ensureDatabase, migrate, pingDatabase, withDatabase } from '@risk/db';
import { ensureConsoleBuilt } from './console-build';
import { ensureLocalSecrets, LOCAL_SECRETS_FILE } from './local-secrets';

/**
 * `pnpm start`: one command for the whole stack. Checks Postgres and Redis (one clear line when one
 * is down), creates the database and applies migrations, then runs public-api, admin-api and worker
 * with prefixed logs. SIGINT/SIGTERM stop all three gracefully; if one dies, the others are stopped.
 *
 * Stopping is bounded whatever a service is doing (docs/security.md, "Analysis under a budget"): each
 * gets one SIGTERM and STOP_GRACE_MS to shut down (the services' own shutdown deadlines are shorter),
 * then its whole process group is SIGKILLed and named as killed. "all services stopped" is printed only
 * once every service process has exited, so everything is gone within 15 s of the signal.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
/** `--tls`: where the local CA and server certificate live (git-ignored; RISK_LOCAL_TLS_DIR moves it) */
const LOCAL_TLS_DIR = path.join(ROOT, '.risk-local', 'tls');
const SERVICES = [
  { name: 'public-api', color: 36 },
  { name: 'admin-api', color: 35 },
  { name: 'worker', color: 33 },
] as const;
const EXIT_WITH_PARENT = path.join(__dirname, 'exit-with-parent.cjs');
/** SIGTERM → SIGKILL grace; a service's own graceful shutdown gives up earlier (onShutdown: 10 s) */
const STOP_GRACE_MS = 12_000;

function say(line: string) {
  process.stderr.write(`\x1b[1m[start]\x1b[0m ${line}\n`);
}

function fail(line: string): never {
  process.stderr.write(`\x1b[31m[start] ${line}\x1b[0m\n`);
  process.exit(1);
}

async function checkPostgres(cfg: Config) {
  const client = new Client({
    connectionString: withDatabase(cfg.DATABASE_URL, 'postgres'),
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await pingDatabase(client);
  } catch (err) {
    const u = new URL(cfg.DATABASE_URL);
    fail(
      `Postgres is not reachable at ${u.host} (DATABASE_URL=${redact(cfg.DATABASE_URL) as string}; ${(err as Error).message || (err as { code?: string }).code}). ` +
        `Start it (e.g. \`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\`, or \`docker compose up -d postgres\`) and retry.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(cfg: Config) {
  const redis = new IORedis(cfg.REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  let cause: Error | undefined;
  redis.on('error', (err: Error) => (cause ??= err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    fail(
      `Redis is not reachable at ${redact(cfg.REDIS_URL) as string} (${(cause ?? (err as Error)).message}). ` +
        `Start it (e.g. \`redis-server --daemonize yes\`, or \`docker compose up -d redis\`) and retry.`,
    );
  } finally {
    redis.disconnect();
  }
}

async function main() {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if ((env.NODE_ENV ?? 'development') !== 'production') {
    const { secrets, created } = ensureLocalSecrets(env);
    Object.assign(env, secrets);
    if (!process.env.ADMIN_API_TOKEN) {
      say(
        `${created ? 'generated' : 'using'} local secrets in ${path.relative(ROOT, LOCAL_SECRETS_FILE)} (git-ignored)`,
      );
      say(`admin API token: ${secrets.ADMIN_API_TOKEN}`);
    }
  }
  // `pnpm start --tls`: HTTPS end to end with a local CA, unless TLS files are configured already
  const scheme = process.argv.includes('--tls') || env.TLS_CERT_FILE ? 'https' : 'http';
  if (process.argv.includes('--tls') && !env.TLS_CERT_FILE && !env.TLS_KEY_FILE) {
    const tls = await ensureLocalTls(env.RISK_LOCAL_TLS_DIR ?? LOCAL_TLS_DIR);
    env.TLS_CERT_FILE = tls.certFile;
    env.TLS_KEY_FILE = tls.keyFile;
    say(
      `${tls.createdCa ? 'generated' : 'using'} local CA and ${tls.createdCert ? 'generated' : 'using'} server certificate in ${tls.dir.startsWith(ROOT + path.sep) ? path.relative(ROOT, tls.dir) : tls.dir}`,
    );
    for (const line of trustInstructions(tls.caCertFile, `https://localhost:${env.PUBLIC_API_PORT ?? 8080}/healthz`))
      say(line);
  }
  let cfg: Config;
  try {
    cfg = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  await checkPostgres(cfg);
  await checkRedis(cfg);
  if (await ensureDatabase(cfg.DATABASE_URL)) say(`created database ${new URL(cfg.DATABASE_URL).pathname.slice(1)}`);
  const result = await migrate(cfg.DATABASE_URL, { log: say });
  say(`migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
  ensureConsoleBuilt(say); // admin-api serves it at /console (docs/console.md)

  const children = new Map<string, ChildProcess>();
  const killed = new Set<string>();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    say('stopping services… (press Ctrl-C again to force)');
    for (const child of children.values()) child.kill('SIGTERM');
    setTimeout(() => forceStop(), STOP_GRACE_MS).unref();
  };
  // SIGKILL the service's process group (it was spawned detached, so its pid is the group id): a
  // service that ignores SIGTERM or whose event loop is stuck goes, and anything it started with it
  const forceStop = () => {
    for (const [name, child] of children) {
      killed.add(name);
      say(`${name} did not stop in time; killing it (SIGKILL)`);
      killGroup(child);
    }
  };
  // A second Ctrl-C while stopping kills at once instead of waiting for in-flight work. Signals within
  // a second of the first count as one: on Ctrl-C both the terminal and pnpm (forwarding) signal us.
  let firstSignalAt = 0;
  const onSignal = () => {
    if (!stopping) {
      firstSignalAt = Date.now();
      stopAll(0);
    } else if (Date.now() - firstSignalAt > 1000) {
      say('forcing stop');
      forceStop();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  for (const svc of SERVICES) {
    const entry = path.join(ROOT, 'services', svc.name, 'src', 'main.ts');
    const child = spawn(process.execPath, ['--require', EXIT_WITH_PARENT, '--import', 'tsx', entry], {
      cwd: path.join(ROOT, 'services', svc.name),
      env,
      // own process group: a terminal's Ctrl-C reaches only us, and each service gets exactly one
      // SIGTERM from stopAll (a second signal would make it skip its graceful shutdown). The IPC
      // channel lets it notice when we die without stopping it (see exit-with-parent.cjs).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    children.set(svc.name, child);
    const prefix = `\x1b[${svc.color}m${svc.name.padEnd(10)}|\x1b[0m `;
    for (const stream of [child.stdout!, child.stderr!]) {
      readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    // 'close', not 'exit': fires once the child's last log lines have been read from its pipes
    // (after the process exited: a pipe kept open by a leftover of its group waits for the SIGKILL)
    child.on('close', (code, signal) => {
      children.delete(svc.name);
      if (!stopping) {
        say(`${svc.name} exited (${signal ?? `code ${code}`}); stopping the others`);
        stopAll(code || 1);
      }
      // whatever remains of its process group goes too, so "stopped" below is true
      killGroup(child);
      if (children.size === 0) {
        if (killed.size > 0) {
          say(`all services stopped; killed after ${STOP_GRACE_MS / 1000} s: ${[...killed].join(', ')}`);
          process.exit(exitCode || 1);
        }
        say('all services stopped');
        process.exit(exitCode);
      }
    });
  }
  say(
    `public-api on ${scheme}://localhost:${cfg.PUBLIC_API_PORT}, admin-api on ${scheme}://localhost:${cfg.ADMIN_API_PORT}, worker health on :${cfg.WORKER_HEALTH_PORT} — Ctrl-C stops all`,
  );
}

/** SIGKILL a detached child's process group; gone already is fine. */
function killGroup(child: ChildProcess) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: no process left in the group
  }
}

main().catch((err: unknown) => fail((err as Error).message));
