import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { closeServer, listenWithLimits } from '@risk/common/server';
import { MAX_HEADER_SIZE } from '../src/app';
import { createHarness, idem, type Harness } from './harness';
import { get } from './rate-limits-fixtures';

// Rate limits and caps (docs/security.md "Rate limits and caps"); how these suites test them: rate-limits-fixtures.ts.

describe('the API key is checked before any body byte is read', () => {
  let h: Harness;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    h = await createHarness('authbeforebody', { env: { RATE_LIMIT_LIVE_PER_SECOND: '2' } });
    server = await listenWithLimits(h.app, { port: 0, host: '127.0.0.1', maxHeaderSize: MAX_HEADER_SIZE });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await closeServer(server, { deadlineMs: 1000 });
    await h.close();
  });

  /**
   * Announces a 10 MiB body, sends only its first 64 KiB, and waits for the answer: a server that read
   * the body before authenticating would wait for the rest and never answer.
   */
  function postAnnouncingTenMiB(key: string): Promise<{ head: string; sentBytes: number }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let received = '';
      socket.on('connect', () => {
        socket.write(
          `POST /v1/signals/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: ${idem()}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"signals":["`,
        );
        socket.write(chunk);
      });
      socket.on('data', (d) => {
        received += d.toString('latin1');
        if (received.includes('\r\n\r\n')) {
          resolve({ head: received, sentBytes: chunk.length });
          socket.destroy();
        }
      });
      socket.on('error', reject);
      socket.on('close', () => {
        if (!received.includes('\r\n\r\n')) reject(new Error('closed without an answer'));
      });
    });
  }

  test('a bad key announcing a 10 MiB body gets 401 at once, without the body, and the connection is closed', async () => {
    // an answer at all is the proof: the body never completes, so a server that read it first would never answer
    // (whatever the machine's speed; the test's own timeout catches that server)
    const { head } = await postAnnouncingTenMiB('rk_live_not_a_key');
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head).toMatch(/api_key_invalid/);
    expect(head.toLowerCase()).toContain('connection: close');
  });

  test('a key over its limit announcing a 10 MiB body gets 429 without the body being read', async () => {
    let head = '';
    for (let attempt = 0; attempt < 6 && !/^HTTP\/1\.1 429 /.test(head); attempt++) {
      const key = await h.mintKey();
      await get(h, key);
      await get(h, key);
      head = (await postAnnouncingTenMiB(key)).head;
    }
    expect(head).toMatch(/^HTTP\/1\.1 429 /);
    expect(head.toLowerCase()).toContain('retry-after: 1');
  });
});
