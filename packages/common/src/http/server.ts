import fs from 'node:fs';
import net from 'node:net';
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Express, RequestHandler } from 'express';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors';
import { newRequestId } from '@risk/db';
import type { Logger } from '../logger';

export interface ListenOptions {
  port: number;
  host?: string;
  /** Node's 16 KiB default rejects 500-key look-up URLs; ours allows 128 KiB of headers */
  maxHeaderSize?: number;
  /** PEM files: serve HTTPS (TLS_CERT_FILE / TLS_KEY_FILE; docs/security.md "HTTPS") */
  tls?: TlsFiles;
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** what listenWithLimits returns: plain HTTP, or HTTPS when TLS files are configured */
export type Server = HttpServer | HttpsServer;

/** The TLS files from the config, or undefined to serve plain HTTP. */
export function tlsFilesFrom(config: { TLS_CERT_FILE?: string; TLS_KEY_FILE?: string }): TlsFiles | undefined {
  return config.TLS_CERT_FILE && config.TLS_KEY_FILE
    ? { certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE }
    : undefined;
}

function readTls(files: TlsFiles): { cert: Buffer; key: Buffer } {
  return { cert: fs.readFileSync(files.certFile), key: fs.readFileSync(files.keyFile) };
}

/**
 * Node answers a request line or headers over maxHeaderSize itself (a bare 431) before express
 * sees it; answer in the API's error envelope instead so clients parse one error shape.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const requestId = newRequestId();
  const apiError = tooLarge
    ? new ApiError('headers_too_large', {
        message: 'The request line and headers exceed the server limit; send fewer look-up keys per request.',
      })
    : new ApiError('malformed_request', { message: 'Malformed HTTP request.' });
  const body = JSON.stringify(apiError.toEnvelope(requestId));
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${apiError.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts an http server with a raised header limit (see ListenOptions.maxHeaderSize); an https one
 * with the same limits when `tls` is given.
 */
export async function listenWithLimits(app: Express, opts: ListenOptions): Promise<Server> {
  const maxHeaderSize = opts.maxHeaderSize ?? 128 * 1024;
  const server: Server = opts.tls
    ? (await import('node:https')).createServer({ maxHeaderSize, ...readTls(opts.tls) }, app)
    : (await import('node:http')).createServer({ maxHeaderSize }, app);
  server.on('clientError', answerClientError);
  trackConnections(server, opts.tls ? 'secureConnection' : 'connection');
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return server;
}

/**
 * Re-reads the certificate and key into a running HTTPS server: new handshakes use them, connections
 * already open keep theirs (tls.Server#setSecureContext). A bad pair throws and the old one stays.
 */
export function reloadTls(server: Server, files: TlsFiles): void {
  if (!('setSecureContext' in server)) throw new Error('reloadTls: the server is not serving TLS');
  server.setSecureContext(readTls(files));
}

/**
 * SIGHUP reloads the TLS certificate (renewed by certbot, cert-manager, ...) without a restart or a
 * dropped connection; a failed reload is logged and the previous certificate keeps serving.
 */
export function reloadTlsOnSighup(logger: Logger, server: Server, files: TlsFiles | undefined): void {
  if (!files) return;
  process.on('SIGHUP', () => {
    try {
      reloadTls(server, files);
      logger.info('tls certificate reloaded', { certFile: files.certFile });
    } catch (err) {
      logger.error('tls certificate reload failed; keeping the previous one', { err: (err as Error).message });
    }
  });
}

/**
 * Strict-Transport-Security on responses that went over HTTPS: served by us (TLS on the socket) or by a
 * TRUST_PROXY load balancer that says so in X-Forwarded-Proto (express's req.secure honours `trust
 * proxy` and nothing else). Never over plain HTTP, where browsers ignore it anyway (RFC 6797 §7.2).
 */
export function hsts(maxAgeSeconds: number): RequestHandler {
  const value = `max-age=${maxAgeSeconds}`;
  return (req, res, next) => {
    if (req.secure) res.setHeader('Strict-Transport-Security', value);
    next();
  };
}

/** The open sockets of a server listenWithLimits started, and the requests each is serving (closeServer reads them). */
const connectionsOf = new WeakMap<Server, Set<net.Socket>>();
const servingOf = new WeakMap<net.Socket, number>();

function trackConnections(server: Server, event: 'connection' | 'secureConnection'): void {
  const sockets = new Set<net.Socket>();
  connectionsOf.set(server, sockets);
  server.on(event, (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // a request counts from its headers until its response's 'close': after 'finish', which http emits once the
  // last byte has been handed to the kernel, or once the connection has gone
  server.prependListener('request', (req, res) => {
    const socket = req.socket as net.Socket;
    servingOf.set(socket, (servingOf.get(socket) ?? 0) + 1);
    res.once('close', () => servingOf.set(socket, (servingOf.get(socket) ?? 1) - 1));
  });
}

/**
 * Closes the sockets that are idle: serving no request and with nothing left to write or read. Node's own
 * closeIdleConnections() also destroys a socket whose last response has been ended but not yet written out
 * (`res.finished`, not `res.writableFinished`): a large answer to a client reading slowly is cut and the client
 * sees ECONNRESET for a request it sent before the stop (docs/reliability.md "Defect found by CI"). A server not
 * started by listenWithLimits has no tracked sockets and gets Node's.
 */
function closeIdleConnections(server: Server): void {
  const sockets = connectionsOf.get(server);
  if (!sockets) {
    server.closeIdleConnections();
    return;
  }
  for (const socket of sockets) {
    if ((servingOf.get(socket) ?? 0) > 0 || socket.writableLength > 0 || socket.readableLength > 0) continue;
    socket.destroy();
  }
}

/** closeServer's times (ms); the APIs set `acceptMs` from SHUTDOWN_ACCEPT_MS and keep the other defaults. */
export interface CloseTiming {
  /** every connection still open is closed then (default 8,000) */
  deadlineMs?: number;
  /** how long after the listener has closed a keep-alive socket may stay idle (default min(1,000, deadline / 4)) */
  idleGraceMs?: number;
  /** how long the listener keeps accepting after the stop began (default min(500, deadline / 16)) */
  acceptMs?: number;
}

/**
 * Graceful stop: let in-flight requests finish, stop accepting once `acceptMs` has passed, force-close whatever
 * remains after the deadline. Every answer from the signal on says `Connection: close`, so a client's next request
 * opens a new connection, refused once the listener has closed (docs/reliability.md "Fault suite").
 *
 * The listener stays open for `acceptMs` after the signal: a client's connect can complete on its side before the
 * server's kernel has queued the connection (the handshake's last ACK waits for the server host's softirq, tens to
 * hundreds of ms on a loaded host), and closing the listener resets such a connection together with the request the
 * client wrote on it before the signal. A connection accepted in that window is served like any other. Keep-alive
 * sockets that look idle are left open for `idleGraceMs` after the listener has closed: a client may have written
 * a request the server has not read yet (closing the socket then resets a request sent before the signal).
 */
export function closeServer(server: Server, timing: CloseTiming = {}): Promise<void> {
  const { deadlineMs = 8_000 } = timing;
  const { idleGraceMs = Math.min(1_000, deadlineMs / 4), acceptMs = Math.min(500, deadlineMs / 16) } = timing;
  return new Promise((resolve) => {
    const closing = (_req: unknown, res: { setHeader(name: string, value: string): unknown }) => {
      res.setHeader('Connection', 'close');
    };
    // before the app's own listener, so the header is set before anything is written
    server.prependListener('request', closing);
    let grace: NodeJS.Timeout | undefined;
    let sweep: NodeJS.Timeout | undefined;
    const force = setTimeout(() => server.closeAllConnections(), deadlineMs);
    setTimeout(() => {
      grace = setTimeout(() => {
        closeIdleConnections(server);
        sweep = setInterval(() => closeIdleConnections(server), 250);
      }, idleGraceMs);
      // net's close() stops listening (a new connection is refused) without http's, which would also close the
      // sockets that look idle at once; the callback runs when the last connection has ended
      net.Server.prototype.close.call(server, () => {
        clearTimeout(grace);
        // http's own close() once no connection is left: it clears http's request-timeout timer
        server.close();
        clearInterval(sweep);
        clearTimeout(force);
        server.removeListener('request', closing);
        resolve();
      });
    }, acceptMs);
  });
}

/**
 * Runs `stop` once on SIGTERM/SIGINT, then exits. A second signal exits at once. The deadline (11 s)
 * stays below `pnpm start`'s 12 s SIGKILL grace, so a service normally exits by itself, and everything
 * is gone within 15 s of the signal (docs/security.md, "Analysis under a budget").
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>, deadlineMs = 11_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, deadlineMs);
    timer.unref();
    stop()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error('error during shutdown', { err });
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
