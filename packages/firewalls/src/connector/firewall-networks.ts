// FIREWALL_ALLOWED_CIDRS: the networks an operator lets tenants' firewalls live in (docs/security.md "Firewall
// targets"). The outbound guard lets a firewall be any private address, since management interfaces are; on a
// shared platform that lets a tenant point a "firewall" at every host:port of the platform's own network and read
// its layout from the test's error reasons (`tcp_refused`, `tls`, `timeout`). With the list set, a connector
// only connects to an address inside it, so a tenant can probe nothing else; empty keeps the guard's rule alone.
import net from 'node:net';

export interface FirewallNetworks {
  /** the setting as written, for messages */
  readonly setting: string;
  /** whether a resolved address may be contacted */
  contains(address: string): boolean;
}

/** Parses a comma-separated list of CIDRs (`10.20.0.0/16, fd00:1::/64`); empty: null (no restriction). */
export function parseFirewallNetworks(value: string): FirewallNetworks | null {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return null;
  const list = new net.BlockList();
  for (const entry of entries) {
    const match = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    const family = match ? net.isIP(match[1]!) : 0;
    const bits = match ? Number(match[2]) : NaN;
    if (!match || !family || bits > (family === 4 ? 32 : 128))
      throw new Error(`FIREWALL_ALLOWED_CIDRS: '${entry}' is not a CIDR (e.g. 10.20.0.0/16 or fd00:1::/64)`);
    list.addSubnet(match[1]!, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    setting: entries.join(','),
    contains(address) {
      // an IPv4-mapped IPv6 address is the IPv4 address it carries
      const bare = address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
      const family = net.isIP(bare);
      return family !== 0 && list.check(bare, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
