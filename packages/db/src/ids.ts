import { randomFillSync } from 'node:crypto';

/**
 * Prefixed, time-sortable ids (`sig_01jd…`): 10 Crockford base32 chars of milliseconds followed by
 * 16 of randomness, ULID-style. Within one millisecond in one process the random part is
 * incremented so ids stay strictly increasing (lists order by created DESC, id DESC).
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export const ID_PREFIXES = {
  signal: 'sig',
  threat: 'thr',
  webhookEndpoint: 'we',
  event: 'evt',
  finding: 'fnd',
  aibom: 'bom',
  assetHistory: 'ahe',
  apiKey: 'key',
  request: 'req',
  delivery: 'whd',
  deliveryAttempt: 'wha',
  tenant: 'ten',
  org: 'org',
  tenantToken: 'ttk',
  suppression: 'sup',
  triageChange: 'tre',
  deploymentToken: 'dpt',
  firewall: 'fw',
  policy: 'pol',
  rule: 'rul',
  assignment: 'asg',
  feedToken: 'ftk',
  feedBlockEntry: 'fbe',
  consoleSession: 'csn',
} as const;

/**
 * Random bytes are drawn from a pool refilled 4 KiB at a time: one randomBytes call costs a few
 * microseconds whatever its size, and every request needs an id (X-Request-Id) and often more.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

function random16(): Buffer {
  if (poolOffset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function nextRandom(now: number): number[] {
  if (now === lastTime) {
    // increment the previous random part (base 32, right to left)
    const r = lastRandom.slice();
    for (let i = r.length - 1; i >= 0; i--) {
      if (r[i]! < 31) {
        r[i]!++;
        break;
      }
      r[i] = 0;
    }
    lastRandom = r;
    return r;
  }
  const bytes = random16();
  lastTime = now;
  lastRandom = Array.from(bytes, (b) => b & 31);
  // leave headroom so increments within one millisecond never wrap
  lastRandom[0] = lastRandom[0]! & 15;
  return lastRandom;
}

export function newId(prefix: string, now = Date.now()): string {
  const t = Math.max(now, lastTime);
  return `${prefix}_${encodeTime(t)}${nextRandom(t)
    .map((d) => ALPHABET[d])
    .join('')}`;
}

export function newRequestId(): string {
  return newId(ID_PREFIXES.request);
}
