// Local servers for the SDK tests, all on 127.0.0.1 with ephemeral ports: the real apps behind an HTTP
// listener, a TCP proxy that loses the answer of the first connections, and a scripted HTTP server.
import http, { type IncomingHttpHeaders, type RequestListener } from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves an express app (or any listener) on an ephemeral port, as `main.ts` does on a fixed one. */
export async function listen(app: RequestListener): Promise<Listening> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A TCP proxy that forwards the first `drop` connections' requests to the target, lets the target answer, and
 * then cuts the client off before any byte of the answer reaches it: the write happened, the client saw a
 * network error. Later connections pass through. `requests` holds the raw request text of every connection.
 */
export async function startAnswerLosingProxy(
  targetPort: number,
  drop = 1,
): Promise<Listening & { requests: string[] }> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    const index = connections++;
    const losing = index < drop;
    requests[index] = '';
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      requests[index] += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!losing) return void client.write(chunk);
      client.destroy();
      upstream.destroy();
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** Answers request n with `script[n]` (the last entry repeats) and records every request. */
export async function startScriptedServer(script: ScriptedAnswer[]): Promise<Listening & { received: Received[] }> {
  const received: Received[] = [];
  const listening = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = script[Math.min(received.length - 1, script.length - 1)]!;
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res
        .writeHead(answer.status, {
          'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json',
          'x-request-id': `req_scripted${received.length}`,
          ...answer.headers,
        })
        .end(text);
    });
  });
  return { ...listening, received };
}

/** The error envelope of docs/errors.md, as the scripted server sends it. */
export function envelope(type: string, code: string, extra: { param?: string; request_id?: string } = {}) {
  return { error: { type, code, message: `${code} (scripted)`, request_id: 'req_scripted', ...extra } };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
