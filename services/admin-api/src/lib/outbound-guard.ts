// Outbound guard for firewall connections (DESIGN.md §3): management interfaces are usually on private
// networks, so private addresses pass; loopback, link-local, metadata, unspecified, multicast and broadcast
// never do, unless OUTBOUND_ALLOWED_HOSTS names the host or an address/CIDR covering it. The check runs on
// the address we actually connect to (see connectors/https-client.ts), so DNS rebinding cannot slip past.
import ipaddr from 'ipaddr.js';

const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
const REFUSED_RANGES = new Set(['loopback', 'linkLocal', 'unspecified', 'multicast', 'broadcast', 'reserved']);

export interface OutboundAllowList {
  hosts: Set<string>;
  cidrs: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export function parseAllowList(value: string | undefined): OutboundAllowList {
  const list: OutboundAllowList = { hosts: new Set(), cidrs: [] };
  for (const raw of (value ?? '').split(',')) {
    const item = raw.trim().toLowerCase();
    if (!item) continue;
    if (item.includes('/')) {
      try {
        list.cidrs.push(ipaddr.parseCIDR(item));
        continue;
      } catch {
        // not a CIDR: treat as a host name below
      }
    }
    if (ipaddr.isValid(item)) list.cidrs.push([normalize(ipaddr.parse(item)), normalize(ipaddr.parse(item)).kind() === 'ipv4' ? 32 : 128]);
    else list.hosts.add(item.replace(/\.$/, ''));
  }
  return list;
}

function normalize(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

function inAllowList(address: ipaddr.IPv4 | ipaddr.IPv6, list: OutboundAllowList): boolean {
  return list.cidrs.some(([range, bits]) => range.kind() === address.kind() && address.match([range, bits] as never));
}

/** Why an address may not be contacted as a firewall host, or null when it may. */
export function firewallAddressRefusal(host: string, ip: string, list: OutboundAllowList): string | null {
  const hostName = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!ipaddr.isValid(ip)) return `${ip} is not an IP address`;
  const address = normalize(ipaddr.parse(ip));
  if (list.hosts.has(hostName) || inAllowList(address, list)) return null;
  const text = address.toString();
  if (METADATA_ADDRESSES.has(text)) return `${text} is a cloud metadata address`;
  const range = address.range();
  if (REFUSED_RANGES.has(range)) return `${text} is a ${range} address`;
  return null;
}

/** Static check of a host as typed (an IP literal, or a name that is obviously local). */
export function firewallHostRefusal(host: string, list: OutboundAllowList): string | null {
  const hostName = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (list.hosts.has(hostName)) return null;
  if (ipaddr.isValid(hostName)) return firewallAddressRefusal(hostName, hostName, list);
  if (hostName === 'localhost' || hostName.endsWith('.localhost')) return `${hostName} is a loopback name`;
  if (hostName === 'metadata.google.internal' || hostName === 'metadata') return `${hostName} is a cloud metadata host`;
  return null;
}
