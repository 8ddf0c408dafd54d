import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../test/worker-process';
import { ROOT, spawnChild, waitFor, type Child, type Stack } from './processes';

/**
 * The other processes of the fault cases and the soak (docs/reliability.md "Fault suite", "Soak"): the admin
 * API and a firewall simulator as children, and a real local webhook receiver (an HTTP server in the test's
 * own process: it is the outside world, not a process of ours).
 */

const ADMIN_MAIN = path.join(ROOT, 'services', 'admin-api', 'src', 'main.ts');
const SIM_CLI = path.join(ROOT, 'packages', 'firewalls', 'src', 'simulators', 'cli.ts');

const tcpOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The admin API (`node --import tsx src/main.ts`) on a free port of the stack's database and Redis. */
export async function startAdminApi(
  stack: Stack,
  extra: Record<string, string> = {},
): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnChild(
    process.execPath,
    ['--import', 'tsx', ADMIN_MAIN],
    { ...stack.env, ADMIN_API_PORT: String(port), ...extra },
    path.dirname(path.dirname(ADMIN_MAIN)),
  );
  stack.children.add(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'admin api to listen',
    async () => {
      if (child.exitCode !== null) throw new Error(`admin api exited: ${child.output.join('')}`);
      return fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
    },
    20_000,
  );
  return { child, url };
}

/**
 * A PAN-OS simulator through its CLI entry (`pnpm sim:panos` runs the same file) on a given port, so a case
 * can stop it (the firewall is down) and start it again where the firewall record points.
 */
export async function startPanosSimulator(stack: Stack, opts: { port: number; apiKey: string }): Promise<Child> {
  const child = spawnChild(
    process.execPath,
    ['--import', 'tsx', SIM_CLI, 'palo_alto'],
    { ...process.env, SIM_PORT: String(opts.port), SIM_API_KEY: opts.apiKey },
    path.dirname(path.dirname(path.dirname(SIM_CLI))),
  );
  stack.children.add(child);
  await waitFor(
    'simulator to listen',
    async () => {
      if (child.exitCode !== null) throw new Error(`simulator exited: ${child.output.join('')}`);
      return tcpOpen(opts.port);
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return child;
}

export interface ReceivedDelivery {
  webhookId: string;
  eventId: string;
  answered: number;
}

/**
 * A webhook receiver on a fixed port: `down()` closes the port (connection refused), `failing` answers 503,
 * otherwise 204. Every request it saw is in `received`.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  failing = false;
  /** share of requests answered 503 at random while not `failing` (the soak: retries under way all the time) */
  failRate = 0;
  private server: http.Server | undefined;
  private constructor(readonly port: number) {}

  static async create(): Promise<WebhookReceiver> {
    return new WebhookReceiver(await freePort());
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async up(): Promise<void> {
    if (this.server) return;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const eventId = parseEventId(Buffer.concat(chunks).toString());
        const answered = this.failing || Math.random() < this.failRate ? 503 : 204;
        this.received.push({ webhookId: String(req.headers['webhook-id'] ?? ''), eventId, answered });
        res.writeHead(answered).end();
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** event ids the receiver accepted (2xx) */
  delivered(): Set<string> {
    return new Set(this.received.filter((r) => r.answered < 300).map((r) => r.eventId));
  }
}

function parseEventId(body: string): string {
  try {
    return String((JSON.parse(body) as { id?: unknown }).id ?? '');
  } catch {
    return '';
  }
}
