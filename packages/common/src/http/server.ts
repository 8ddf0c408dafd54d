import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors';
import { newRequestId } from '../ids';
import type { Logger } from '../logger';

export interface ListenOptions {
  port: number;
  host?: string;
  /** Node's 16 KiB default rejects 500-key look-up URLs; ours allows 128 KiB of headers */
  maxHeaderSize?: number;
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

/** Starts an http server with a raised header limit (see ListenOptions.maxHeaderSize). */
export async function listenWithLimits(app: Express, opts: ListenOptions): Promise<Server> {
  const http = await import('node:http');
  const server = http.createServer({ maxHeaderSize: opts.maxHeaderSize ?? 128 * 1024 }, app);
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return server;
}

/**
 * Graceful stop: refuse new connections, let in-flight requests finish (closing idle keep-alive
 * sockets as they free up), force-close whatever remains after the deadline.
 */
export function closeServer(server: Server, deadlineMs = 8_000): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 250);
    const force = setTimeout(() => server.closeAllConnections(), deadlineMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
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
