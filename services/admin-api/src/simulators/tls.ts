// Test-only TLS material for the simulators. certs/sim-cert.pem and certs/sim-key.pem are a self-signed pair
// generated once with:
//   openssl req -x509 -newkey rsa:2048 -nodes -keyout sim-key.pem -out sim-cert.pem -days 3650 \
//     -subj "/CN=firewall-simulator.local" -addext "subjectAltName=DNS:localhost,DNS:firewall-simulator.local,IP:127.0.0.1"
// They protect nothing; never use them outside the simulators.
import fs from 'node:fs';
import path from 'node:path';

export function simulatorTls(): { key: string; cert: string } {
  const dir = path.join(__dirname, 'certs');
  return { key: fs.readFileSync(path.join(dir, 'sim-key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'sim-cert.pem'), 'utf8') };
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
