// Shared plumbing of the vendor simulators: test-only TLS material, body reading, loopback listening.
// TLS material: certs/sim-cert.pem and certs/sim-key.pem are a self-signed pair
// generated once with:
//   openssl req -x509 -newkey rsa:2048 -nodes -keyout sim-key.pem -out sim-cert.pem -days 3650 \
//     -subj "/CN=firewall-simulator.local" -addext "subjectAltName=DNS:localhost,DNS:firewall-simulator.local,IP:127.0.0.1"
// They protect nothing; never use them outside the simulators.
import fs from 'node:fs';
import type https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export function simulatorTls(): { key: string; cert: string } {
  const dir = path.join(__dirname, 'certs');
  return {
    key: fs.readFileSync(path.join(dir, 'sim-key.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'sim-cert.pem'), 'utf8'),
  };
}

export function readBody(req: import('node:http').IncomingMessage, limit = 4 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export interface SimulatorHandle<S> {
  url: string;
  port: number;
  host: string;
  state: S;
  /**
   * down = true: the device stops answering (every connection is reset, open ones too) until set back,
   * with its configuration kept; the fault tests use it for a firewall that is unreachable for a while
   */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** Simulators listen on 127.0.0.1 only (port 0: any free port); close() drops open keep-alive sockets too. */
export async function listenOnLoopback<S>(
  server: https.Server,
  port: number | undefined,
  state: S,
): Promise<SimulatorHandle<S>> {
  let down = false;
  server.on('connection', (socket: import('node:net').Socket) => {
    if (down) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port ?? 0, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${bound}`,
    port: bound,
    host: '127.0.0.1',
    state,
    setDown(value) {
      down = value;
      if (value) server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
