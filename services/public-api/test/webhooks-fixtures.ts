// Shared setup of the webhook suites (webhooks-create, webhooks-access, webhooks-update, webhooks-e2e, and the
// suites that deliver in-process): a plain-http receiver on 127.0.0.1 that records what it gets and answers with the
// queued statuses, and the deps to deliver to it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedHostsFor, OutboundGuard } from '@risk/common/outbound';
import { createHarness, type Harness } from './harness';

export interface Receiver {
  server: Server;
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: string }>;
  statuses: number[];
}

export async function startReceiver(): Promise<Receiver> {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, statuses };
}

export async function stopReceiver(receiver: Receiver): Promise<void> {
  receiver.server.closeAllConnections();
  await new Promise((r) => receiver.server.close(r));
}

/** What the worker's deliverWebhook needs to deliver in-process from a suite: the guard with the webhook allow-list. */
export const deliveryDeps = (h: Harness) => ({
  prisma: h.ctx.db.prisma,
  config: h.ctx.config,
  producer: null,
  guard: new OutboundGuard(allowedHostsFor(h.ctx.config, 'webhook')),
});

/**
 * One webhook suite's lifecycle: a harness, a test-mode key (the receiver is plain http on 127.0.0.1, which live mode
 * refuses) and a receiver, set up before the suite's tests and closed after them. Read the fields in a test or hook.
 */
export function webhookSuite(label: string): { h: Harness; testKey: string; receiver: Receiver } {
  const suite = {} as { h: Harness; testKey: string; receiver: Receiver };
  beforeAll(async () => {
    suite.h = await createHarness(label);
    suite.testKey = await suite.h.mintKey({ livemode: false });
    suite.receiver = await startReceiver();
  });
  afterAll(async () => {
    await stopReceiver(suite.receiver);
    await suite.h.close();
  });
  return suite;
}
