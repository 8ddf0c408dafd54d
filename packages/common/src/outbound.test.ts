import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from './config';
import {
  addressProblem,
  addressRefusal,
  allowedHostsFor,
  guardedRequest,
  hostRefusal,
  OutboundGuard,
  parseAllowList,
} from './outbound';

describe('outbound guard', () => {
  it('classifies addresses per purpose', () => {
    expect(addressProblem('127.0.0.1', 'webhook')).toMatch(/loopback/);
    expect(addressProblem('::1', 'firewall')).toMatch(/loopback/);
    expect(addressProblem('169.254.169.254', 'firewall')).toMatch(/metadata/);
    expect(addressProblem('169.254.10.1', 'firewall')).toMatch(/link-local/);
    expect(addressProblem('10.1.2.3', 'webhook')).toMatch(/private/);
    expect(addressProblem('10.1.2.3', 'firewall')).toBeNull();
    expect(addressProblem('::ffff:127.0.0.1', 'webhook')).toMatch(/loopback/);
    expect(addressProblem('93.184.215.14', 'webhook')).toBeNull();
    expect(addressProblem('2606:4700::1111', 'webhook')).toBeNull();
  });

  it('refuses IPv6 transition addresses, which reach IPv4 targets the guard cannot see', () => {
    // NAT64 form of the metadata address, 6to4 of 127.0.0.1, a Teredo address
    for (const ip of ['64:ff9b::a9fe:a9fe', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:3fff:fdd2']) {
      expect(addressProblem(ip, 'webhook')).toMatch(/IPv6 transition address/);
      expect(addressProblem(ip, 'firewall')).toMatch(/IPv6 transition address/);
    }
    // other non-unicast ranges are no webhook receiver
    expect(addressProblem('100::1', 'webhook')).toMatch(/discard/);
    expect(addressProblem('198.18.0.1', 'webhook')).toMatch(/reserved/);
  });

  it('refuses loopback unless allow-listed, by host or CIDR', async () => {
    await expect(new OutboundGuard('').resolve('127.0.0.1', 'webhook')).rejects.toMatchObject({
      code: 'url_not_allowed',
      param: 'url',
    });
    await expect(new OutboundGuard('').resolve('localhost', 'webhook')).rejects.toMatchObject({
      code: 'url_not_allowed',
    });
    await expect(new OutboundGuard('127.0.0.1').resolve('127.0.0.1', 'webhook')).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
      exempted: true,
    });
    await expect(new OutboundGuard('').resolve('93.184.215.14', 'webhook')).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
      exempted: false,
    });
    await expect(new OutboundGuard('127.0.0.0/8').resolve('127.0.0.2', 'firewall')).resolves.toMatchObject({
      address: '127.0.0.2',
    });
    await expect(new OutboundGuard('').resolve('metadata.google.internal', 'firewall', 'host')).rejects.toMatchObject({
      param: 'host',
    });
  });

  it('refuses IPv4-compatible IPv6 (::/96) and the rest of the IETF-reserved ::/8 for both purposes', async () => {
    // ::7f00:1 is how a URL writes [::127.0.0.1]; ::a9fe:a9fe is the metadata address; ::0.0.0.2 and 0:1::
    // are elsewhere in ::/8
    for (const ip of ['::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::a00:1', '::808:808', '::2', '0:1::', 'ff:ffff::1']) {
      for (const purpose of ['webhook', 'firewall'] as const) {
        expect(addressProblem(ip, purpose)).not.toBeNull();
        expect(hostRefusal(parseAllowList(''), `[${ip}]`, purpose)).not.toBeNull();
      }
    }
    expect(addressProblem('::808:808', 'webhook')).toMatch(/IETF-reserved ::\/8/);
    const url = new URL('https://[::127.0.0.1]/hook');
    expect(url.hostname).toBe('[::7f00:1]');
    await expect(new OutboundGuard('').resolve(url.hostname, 'webhook')).rejects.toMatchObject({
      code: 'url_not_allowed',
      message: expect.stringMatching(/IETF-reserved/),
    });
    // :: and ::1 keep their own reasons; the first address outside ::/8 is ordinary unicast
    expect(addressProblem('::', 'webhook')).toMatch(/unspecified/);
    expect(addressProblem('::1', 'webhook')).toMatch(/loopback/);
    expect(addressProblem('100:0:0:0:0:0:0:1', 'firewall')).toBeNull();
  });

  it('keeps an allow-list to its purpose: the firewall list (and the deprecated variable) never opens webhooks', async () => {
    // the README's demo setting, old and new spelling
    for (const env of [
      { OUTBOUND_ALLOWED_HOSTS_FIREWALL: '127.0.0.1,localhost' },
      { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1,localhost' },
    ]) {
      const config = loadConfig(env);
      expect(allowedHostsFor(config, 'webhook')).toBe('');
      const webhooks = new OutboundGuard(allowedHostsFor(config, 'webhook'));
      for (const host of ['127.0.0.1', 'localhost'])
        await expect(webhooks.resolve(host, 'webhook')).rejects.toMatchObject({
          code: 'url_not_allowed',
          message: expect.stringMatching(/OUTBOUND_ALLOWED_HOSTS_WEBHOOK/),
        });
      const firewalls = parseAllowList(allowedHostsFor(config, 'firewall'));
      expect(hostRefusal(firewalls, 'localhost', 'firewall')).toBeNull();
      expect(addressRefusal(firewalls, { host: 'fw.example', ip: '127.0.0.1' }, 'firewall')).toBeNull();
    }
    const both = loadConfig({ OUTBOUND_ALLOWED_HOSTS_FIREWALL: '10.0.0.0/8', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    expect(allowedHostsFor(both, 'firewall')).toBe('10.0.0.0/8,127.0.0.1');
    const webhookOnly = loadConfig({ OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '127.0.0.1' });
    expect(allowedHostsFor(webhookOnly, 'firewall')).toBe('');
    expect(hostRefusal(parseAllowList(allowedHostsFor(webhookOnly, 'firewall')), '127.0.0.1', 'firewall')).toMatch(
      /loopback/,
    );
  });

  it('guardedRequest keeps at most maxBodyBytes and says when the target was reached only through the allow-list', async () => {
    const server = createServer((_req, res) => res.end('x'.repeat(5000)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await guardedRequest(new OutboundGuard('127.0.0.1'), {
        purpose: 'webhook',
        url: `http://127.0.0.1:${port}/`,
        timeoutMs: 5000,
        maxBodyBytes: 1024,
      });
      expect(res).toMatchObject({ status: 200, truncated: true, exempted: true });
      expect(res.body).toHaveLength(1024);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
