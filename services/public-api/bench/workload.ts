/**
 * What `pnpm bench` (run.ts) and the profiling aid (profile.ts) send: one signal shape, so both
 * measure the same requests.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const urlOf = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

/** A signal for asset `bench:<run>:<i>` of the size a collector sends (manifest and metadata included). */
export function benchSignal(orgId: string, i: number, run: string) {
  return {
    fingerprint: `bench:${run}:${i}`,
    asset_type: 'mcp_server',
    org_id: orgId,
    observed_at: Math.floor(Date.now() / 1000) - 60,
    name: `@bench/server-${i}`,
    version: '1.0.0',
    source_url: `https://www.npmjs.com/package/@bench/server-${i}`,
    raw_manifest: JSON.stringify({
      name: `@bench/server-${i}`,
      version: '1.0.0',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' },
    }),
    metadata: { collector: 'bench', host: `host-${i % 17}` },
  };
}
