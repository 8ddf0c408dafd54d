// Graceful stop (docs/reliability.md "Fault suite", case d): a request a client wrote on a keep-alive
// socket just before the stop is answered, not reset; that answer says Connection: close; a connection the
// server's kernel completes in the first moments of the stop is served, a later one refused; and the stop
// completes when the last socket has gone.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { scaledByLoad } from '@risk/time-budget';
import { closeServer, listenWithLimits } from './server';

/** Reads one HTTP/1.1 response (headers + Content-Length body) from a raw socket. */
function readResponse(socket: net.Socket): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = buf.slice(0, end);
      const length = Number(/content-length:\s*(\d+)/i.exec(headers)?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('error', reject);
      socket.off('close', onClose);
      resolve({ status: Number(headers.slice(9, 12)), headers, body: buf.slice(end + 4, end + 4 + length) });
    };
    // a socket the server closed (or reset) before answering fails the read at once
    const onClose = () => reject(new Error(`socket closed before an answer (read: ${JSON.stringify(buf)})`));
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', onClose);
  });
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

const refused = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });

const ask = (n: number) => `GET /n/${n} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`;

/** A server and a keep-alive socket that has had one answer (the socket is idle now). */
async function serverWithIdleSocket() {
  const app = express();
  app.get('/n/:n', (req, res) => res.json({ n: Number(req.params.n) }));
  const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  const socket = await connect(port);
  socket.write(ask(1));
  const first = await readResponse(socket);
  return { server, port, socket, first };
}

describe('closeServer', () => {
  it('answers a request written on an idle keep-alive socket as the stop begins, then refuses and ends', async () => {
    const { server, port, socket, first } = await serverWithIdleSocket();
    expect(first.status).toBe(200);
    expect(first.headers).not.toMatch(/connection: close/i);
    // the socket is idle now; the stop begins and, in the same tick, the client writes its next request
    // (Node's own server.close() would destroy the idle socket before reading it: ECONNRESET)
    // a grace and a deadline longer than the test's own timeout: the stop ending at all shows it waited for neither
    const closed = closeServer(server, { deadlineMs: 120_000, idleGraceMs: 60_000, acceptMs: 100 });
    const secondAnswer = readResponse(socket);
    socket.write(ask(2));
    const second = await secondAnswer;
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body)).toEqual({ n: 2 });
    expect(second.headers).toMatch(/connection: close/i);
    await new Promise((r) => setTimeout(r, 150)); // past the accept window
    expect(await refused(port)).toBe('ECONNREFUSED');

    // the server closed that socket after its answer, so the stop did not wait for the grace or deadline
    await closed;
    expect(server.listening).toBe(false);
    socket.destroy();
  });

  it('serves a connection completed in the accept window, with Connection: close, and refuses one after it', async () => {
    // a client whose connect completed on its side just before the signal may reach the server's accept queue only
    // later (the handshake's last ACK waits for the server host's softirq): closing the listener at once would reset
    // it together with the request written on it. Here the connection is made after the stop has begun.
    const { server, port, socket } = await serverWithIdleSocket();
    socket.destroy();
    // a window far longer than the connect needs: on a loaded host the server's kernel may take hundreds of ms to
    // queue a connection the client already sees as connected (the very delay the window is for); stretched by the
    // machine's load, since the connect, the request and its answer must all fit in it
    const acceptMs = scaledByLoad(1_500);
    const closed = closeServer(server, { deadlineMs: acceptMs + 5_000, idleGraceMs: 300, acceptMs });
    await new Promise((r) => setTimeout(r, 100));
    const late = await connect(port);
    const answer = readResponse(late);
    late.write(ask(3));
    const third = await answer;
    expect(third.status).toBe(200);
    expect(JSON.parse(third.body)).toEqual({ n: 3 });
    expect(third.headers).toMatch(/connection: close/i);
    expect(server.listening).toBe(true);

    await new Promise((r) => setTimeout(r, acceptMs)); // past the window
    expect(server.listening).toBe(false);
    expect(await refused(port)).toBe('ECONNREFUSED');
    await closed;
    late.destroy();
  });

  it('closes a keep-alive socket that stays idle once the grace has passed', async () => {
    const { server, socket } = await serverWithIdleSocket();
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    const started = Date.now();
    // a deadline longer than the test's own timeout: the socket closing at all shows the grace closed it
    await closeServer(server, { deadlineMs: 120_000, idleGraceMs: 300, acceptMs: 200 });
    await ended;
    // the accept window, then the grace (a lower bound holds whatever the load)
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('lets a large answer the client reads slowly finish being written before it closes the socket', async () => {
    // the answer is ended (res.finished) long before its bytes are written out: the client is not reading.
    // Node's closeIdleConnections() counts such a socket as idle and destroys it, cutting the answer
    const size = 16 * 1024 * 1024;
    const app = express();
    app.get('/big', (_req, res) => res.type('text/plain').send('x'.repeat(size)));
    const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1' });
    const { port } = server.address() as AddressInfo;
    const socket = await connect(port);
    socket.pause();
    socket.write('GET /big HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await new Promise((r) => setTimeout(r, 200)); // the server has ended the answer; most of it is still queued

    const closed = closeServer(server, { deadlineMs: 5_000, idleGraceMs: 100 });
    await new Promise((r) => setTimeout(r, 600)); // past the grace and two sweeps
    let received = 0;
    let reset: string | undefined;
    const ended = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.once('error', (err: NodeJS.ErrnoException) => (reset = err.code));
      socket.once('close', () => resolve());
    });
    socket.resume();
    await ended;
    await closed;
    expect(reset).toBeUndefined();
    // the whole answer arrived (headers + body), then the server closed the idle socket
    expect(received).toBeGreaterThan(size);
  });
});
