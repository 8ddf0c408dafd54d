import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * `pnpm start --tls`: a local certificate authority and a server certificate it signs (SANs localhost,
 * 127.0.0.1, ::1), kept in a git-ignored folder and reused across starts so a client trusts the CA once
 * (docs/security.md "HTTPS"). Only the server certificate is regenerated when it nears expiry; the CA
 * lasts ten years. Keys are written mode 0600.
 */
export interface LocalTlsFiles {
  dir: string;
  caCertFile: string;
  caKeyFile: string;
  certFile: string;
  keyFile: string;
}

export function localTlsFiles(dir: string): LocalTlsFiles {
  return {
    dir,
    caCertFile: path.join(dir, 'ca.crt'),
    caKeyFile: path.join(dir, 'ca.key'),
    certFile: path.join(dir, 'server.crt'),
    keyFile: path.join(dir, 'server.key'),
  };
}

const DAY_MS = 86_400_000;
/** the server certificate is renewed when fewer days than this are left */
const RENEW_BEFORE_DAYS = 30;

function validFor(file: string, minDays: number): boolean {
  try {
    const cert = new X509Certificate(fs.readFileSync(file));
    return new Date(cert.validTo).getTime() - Date.now() > minDays * DAY_MS;
  } catch {
    return false;
  }
}

function signedBy(certFile: string, caFile: string): boolean {
  try {
    const cert = new X509Certificate(fs.readFileSync(certFile));
    return cert.verify(new X509Certificate(fs.readFileSync(caFile)).publicKey);
  } catch {
    return false;
  }
}

/** Creates whatever is missing or expiring; returns the files and what was generated. */
export async function ensureLocalTls(
  dir: string,
): Promise<LocalTlsFiles & { createdCa: boolean; createdCert: boolean }> {
  const files = localTlsFiles(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let createdCa = false;
  if (!fs.existsSync(files.caKeyFile) || !validFor(files.caCertFile, RENEW_BEFORE_DAYS)) {
    const now = new Date();
    const ca = await generate([{ name: 'commonName', value: 'Risk Intelligence local CA' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: now,
      notAfterDate: new Date(now.getTime() + 3650 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    });
    fs.writeFileSync(files.caKeyFile, ca.private, { mode: 0o600 });
    fs.writeFileSync(files.caCertFile, ca.cert);
    createdCa = true;
  }
  let createdCert = false;
  if (
    createdCa ||
    !fs.existsSync(files.keyFile) ||
    !validFor(files.certFile, RENEW_BEFORE_DAYS) ||
    !signedBy(files.certFile, files.caCertFile)
  ) {
    const now = new Date();
    const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: now,
      // browsers refuse server certificates valid for more than 398 days
      notAfterDate: new Date(now.getTime() + 397 * DAY_MS),
      ca: { key: fs.readFileSync(files.caKeyFile, 'utf8'), cert: fs.readFileSync(files.caCertFile, 'utf8') },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    fs.writeFileSync(files.keyFile, leaf.private, { mode: 0o600 });
    fs.writeFileSync(files.certFile, leaf.cert);
    createdCert = true;
  }
  return { ...files, createdCa, createdCert };
}

/** How to make clients trust the local CA: printed by `pnpm start --tls` (docs/security.md "HTTPS"). */
export function trustInstructions(caCertFile: string, exampleUrl = 'https://localhost:8080/healthz'): string[] {
  return [
    `local CA: ${caCertFile} — trust it once, then https://localhost works without warnings:`,
    `  curl:    curl --cacert ${caCertFile} ${exampleUrl}`,
    `  Node:    NODE_EXTRA_CA_CERTS=${caCertFile} node your-script.js`,
    `  Debian/Ubuntu: sudo cp ${caCertFile} /usr/local/share/ca-certificates/risk-local-ca.crt && sudo update-ca-certificates`,
    `  macOS:   sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${caCertFile}`,
    `  Windows: certutil -addstore -f Root ${caCertFile}`,
  ];
}
