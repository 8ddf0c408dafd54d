import { addressProblem, OutboundGuard } from './outbound';

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
    });
    await expect(new OutboundGuard('127.0.0.0/8').resolve('127.0.0.2', 'firewall')).resolves.toMatchObject({
      address: '127.0.0.2',
    });
    await expect(new OutboundGuard('').resolve('metadata.google.internal', 'firewall', 'host')).rejects.toMatchObject({
      param: 'host',
    });
  });
});
