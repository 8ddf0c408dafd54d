// The two ways the suites send bytes to POST /v1/artifacts (docs/artifacts.md "Artifacts in the API"): whole, through supertest,
// and over a raw request whose body the test writes itself (cut short, or chunked with no length).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import request from 'supertest';

type App = Parameters<typeof request>[0];

export interface UploadOptions {
  /** the API key sent as the bearer token */
  key: string;
  /** a fresh one per call unless given (replays reuse one) */
  idempotencyKey?: string;
  /** appended to the path, e.g. `?filename=model.bin` */
  query?: string;
}

/** Uploads `bytes` as an octet stream, as the scanner and the SDK do. */
export function uploadArtifact(app: App, bytes: Uint8Array, opts: UploadOptions) {
  return request(app)
    .post(`/v1/artifacts${opts.query ?? ''}`)
    .set('Authorization', `Bearer ${opts.key}`)
    .set('Idempotency-Key', opts.idempotencyKey ?? randomUUID())
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.from(bytes));
}

/**
 * Starts an upload to a listening server on `port` and leaves its body to the caller: with `contentLength` the
 * server expects that many bytes (write fewer and destroy the request to go away mid-upload); without it the body is
 * chunked and its size is found only while streaming. Socket errors after a destroy are expected and ignored.
 */
export function openArtifactUpload(port: number, key: string, contentLength?: number): http.ClientRequest {
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/v1/artifacts',
    headers: {
      Authorization: `Bearer ${key}`,
      'Idempotency-Key': randomUUID(),
      'Content-Type': 'application/octet-stream',
      ...(contentLength === undefined
        ? { 'Transfer-Encoding': 'chunked' }
        : { 'Content-Length': String(contentLength) }),
    },
  });
  req.on('error', () => undefined);
  return req;
}
