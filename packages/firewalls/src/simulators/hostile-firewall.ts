// A hostile "firewall" for the tests of docs/security.md "Firewall replies": a TLS server (the simulators' test
// certificate, simulatorTls) that answers every request with the same crafted body, as a host a tenant controls
// could. Test-only, like the simulators.
import https from 'node:https';
import { listenOnLoopback, readBody, simulatorTls, type SimulatorHandle } from './tls';

export interface HostileFirewallState {
  /** requests answered so far */
  requests: number;
}

/**
 * A PAN-OS-looking `<response>` whose start tag carries attributes until it is `bytes` long: what the audit sent
 * (8 MiB took fast-xml-parser about 8.5 s on the main thread).
 */
export function attributeBombXml(bytes: number): string {
  const head = '<response status="success"';
  const tail = '><result><system><model>PA-VM</model></system></result></response>';
  const attrs: string[] = [];
  let length = head.length + tail.length;
  for (let i = 0; length < bytes; i++) {
    const attr = ` a${i}="x"`;
    attrs.push(attr);
    length += attr.length;
  }
  return head + attrs.join('') + tail;
}

/**
 * Answers every request (any path, any credential) with `body` as `contentType`, 200, in 64 KiB chunks without a
 * Content-Length (so a client cannot refuse it from the headers alone).
 */
export async function startHostileFirewall(
  body: string,
  contentType = 'application/xml',
): Promise<SimulatorHandle<HostileFirewallState>> {
  const state: HostileFirewallState = { requests: 0 };
  const payload = Buffer.from(body);
  const server = https.createServer(simulatorTls(), (req, res) => {
    state.requests++;
    res.on('error', () => undefined); // the client hangs up once it has read enough
    // read the request before answering, as a device would; the reply is sent whatever the request said
    void readBody(req)
      .catch(() => '')
      .then(() => {
        res.writeHead(200, { 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' });
        for (let at = 0; at < payload.length && !res.destroyed; at += 64 * 1024)
          res.write(payload.subarray(at, at + 64 * 1024));
        res.end();
      });
  });
  return listenOnLoopback(server, undefined, state);
}
