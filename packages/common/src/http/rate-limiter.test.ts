import { randomBytes } from 'node:crypto';
import { createServer, connect, type Socket } from 'node:net';
import type IORedis from 'ioredis';
import { createLogger } from '../logger';
import { createPipelinedConnection } from '../queue';
import { LEASE_SHARE, Limiter, type RateLimitPolicy } from './rate-limiter';

// One store call per key and event-loop turn (docs/performance.md "The checks of one turn, counted once"), answered
// as if each check had been counted alone; real Redis, two limiters standing in for two replicas.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger({ service: 'rate-limiter-test', level: 'silent' });

describe('Limiter: the checks of one turn share one store call', () => {
  const prefix = `risk_t_rl_${randomBytes(4).toString('hex')}`;
  let redis: IORedis;
  let scripts = 0;

  beforeAll(() => {
    redis = createPipelinedConnection({ url: REDIS_URL, prefix }, 'rate-limiter-test');
    // counts the store calls that reach Redis (each is one EVALSHA, or an EVAL the first time)
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      if (command.name === 'evalsha' || command.name === 'eval') scripts++;
      return (send as (...a: unknown[]) => unknown)(command, ...rest);
    }) as typeof redis.sendCommand;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  // a long window, so no window boundary falls inside a test
  const policy = (quota: number): RateLimitPolicy => ({
    name: `p${randomBytes(3).toString('hex')}`,
    quota,
    windowSeconds: 60,
  });
  // these tests are about counting, not about failing open: a store call slowed by a busy machine must still count
  // (failing open on a hanging store has its own test below, with a short timeout)
  const limiter = (p: RateLimitPolicy, conn: IORedis | null = redis) =>
    new Limiter(p, { redis: conn, keyPrefix: prefix, logger, storeTimeoutMs: 60_000 });

  it('answers each check as if counted alone, in arrival order, with one store call', async () => {
    const p = policy(20);
    const l = limiter(p);
    await l.consume('warm-up'); // the script is loaded and the connection open before counting
    const before = scripts;
    const decisions = await Promise.all(Array.from({ length: 30 }, () => l.consume('caller')));
    expect(scripts - before).toBe(1);
    expect(decisions.map((d) => d.allowed)).toEqual([...Array(20).fill(true), ...Array(10).fill(false)]);
    expect(decisions.map((d) => d.remaining)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => 19 - i),
      ...Array(10).fill(0),
    ]);
    expect(await redis.get(`${prefix}:rl:${p.name}:caller`)).toBe('30');
    // the next turn continues from the shared count
    expect(await l.consume('caller')).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('weighs each check: a heavy check is refused while a lighter one after it still fits', async () => {
    const l = limiter(policy(20));
    const decisions = await Promise.all([5, 10, 3, 4].map((w) => l.consume('weighted', w)));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 15],
      [true, 5],
      [true, 2],
      [false, 0],
    ]);
  });

  it('keeps keys apart, and two replicas together admit exactly the quota', async () => {
    const p = policy(20);
    const [a, b] = [limiter(p), limiter(p)];
    const [fromA, fromB, other] = await Promise.all([
      Promise.all(Array.from({ length: 15 }, () => a.consume('shared'))),
      Promise.all(Array.from({ length: 15 }, () => b.consume('shared'))),
      Promise.all(Array.from({ length: 5 }, () => a.consume('someone-else'))),
    ]);
    expect([...fromA, ...fromB].filter((d) => d.allowed)).toHaveLength(20);
    expect(other.every((d) => d.allowed)).toBe(true);
    expect(other.at(-1)!.remaining).toBe(15);
  });

  it('with Redis unreachable, counts the turn in process with the same quota', async () => {
    const down = createPipelinedConnection({ url: 'redis://127.0.0.1:1', prefix }, 'rate-limiter-down');
    try {
      // the default timeouts: whether the connection is still opening or refused, the in-process counter answers
      const l = new Limiter(policy(3), { redis: down, keyPrefix: prefix, logger });
      const decisions = await Promise.all(Array.from({ length: 5 }, () => l.consume('caller')));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    } finally {
      down.disconnect();
    }
  });

  it('lets checks through when the store hangs past its timeout, and warns', async () => {
    // a proxy to the real Redis that stops answering once `hanging` is set: the connection stays open, replies never come
    let hanging = false;
    const sockets: Socket[] = [];
    const proxy = createServer((client) => {
      const upstream = connect(6379, '127.0.0.1');
      sockets.push(client, upstream);
      client.on('data', (d) => void (hanging || upstream.write(d)));
      upstream.on('data', (d) => void (hanging || client.write(d)));
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const { port } = proxy.address() as { port: number };
    const conn = createPipelinedConnection({ url: `redis://127.0.0.1:${port}`, prefix }, 'rate-limiter-hang');
    const warnings: string[] = [];
    const watched = { ...logger, warn: (m: string) => void warnings.push(m) } as unknown as typeof logger;
    try {
      const l = new Limiter(policy(1), { redis: conn, keyPrefix: prefix, logger: watched, storeTimeoutMs: 100 });
      expect(await l.consume('caller')).toMatchObject({ allowed: true, remaining: 0 });
      hanging = true;
      // over the quota, but the store does not answer: the check passes (fail open) instead of waiting
      expect(await l.consume('caller')).toMatchObject({ allowed: true, used: 0 });
      expect(warnings.some((w) => w.includes('rate limiter store unavailable'))).toBe(true);
    } finally {
      conn.disconnect();
      for (const s of sockets) s.destroy();
      proxy.close();
    }
  });
  describe('with leases (docs/security.md "Rate limits and caps", "Leases")', () => {
    const leased = (p: RateLimitPolicy, opts: { timeoutMs?: number } = {}) =>
      new Limiter(p, { redis, keyPrefix: prefix, logger, storeTimeoutMs: opts.timeoutMs ?? 60_000 }, { lease: true });
    const sequential = async (l: Limiter, key: string, n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await l.consume(key)); // one check per turn: the lease's case
      return out;
    };

    it('answers a busy key from the lease: a store call per lease, not per check', async () => {
      const p = policy(2000); // a lease is 100 points
      const l = leased(p);
      await l.consume('warm-up');
      const before = scripts;
      const decisions = await sequential(l, 'busy', 300);
      expect(decisions.every((d) => d.allowed)).toBe(true);
      // 300 checks, one a turn: without leases 300 store calls; with them one per 100 points
      expect(scripts - before).toBeLessThanOrEqual(Math.ceil(300 / (p.quota * LEASE_SHARE)) + 1);
      // remaining counts down check by check, as if each had been counted alone
      expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: 300 }, (_, i) => p.quota - 1 - i));
      // every point a check used was counted in Redis first
      expect(Number(await redis.get(`${prefix}:rl:${p.name}:busy`))).toBeGreaterThanOrEqual(300);
    });

    it('two replicas never admit more than the quota, and at most a lease each less', async () => {
      const p = policy(200); // a lease is 10 points
      const [a, b] = [leased(p), leased(p)];
      const results = await Promise.all([sequential(a, 'shared', 250), sequential(b, 'shared', 250)]);
      const admitted = results.flat().filter((d) => d.allowed).length;
      expect(admitted).toBeLessThanOrEqual(p.quota);
      expect(admitted).toBeGreaterThanOrEqual(p.quota - 2 * p.quota * LEASE_SHARE);
      // once refused, a key stays refused in that window on both replicas
      for (const r of results) {
        const firstRefusal = r.findIndex((d) => !d.allowed);
        expect(r.slice(firstRefusal).every((d) => !d.allowed)).toBe(true);
      }
    });

    it('a weighted check larger than what is left of the lease goes to the store and still fits the quota', async () => {
      const p = policy(200);
      const l = leased(p);
      expect(await l.consume('weighted')).toMatchObject({ allowed: true, remaining: 199 }); // lease of 10 taken
      const before = scripts;
      expect(await l.consume('weighted', 50)).toMatchObject({ allowed: true });
      expect(scripts - before).toBe(1);
      // the quota is the store's: 150 more would pass 200 whatever the lease holds
      expect((await l.consume('weighted', 150)).allowed).toBe(false);
    });

    it('a lease ends with its window: the next window starts from the store again', async () => {
      const p: RateLimitPolicy = { name: `p${randomBytes(3).toString('hex')}`, quota: 100, windowSeconds: 1 };
      const l = leased(p);
      const first = await l.consume('windowed');
      expect(first.allowed).toBe(true);
      await new Promise((r) => setTimeout(r, first.resetSeconds * 1000 + 50));
      const before = scripts;
      expect(await l.consume('windowed')).toMatchObject({ allowed: true, remaining: 99 });
      expect(scripts - before).toBe(1);
    });

    it('without the option, or for a quota below 1/LEASE_SHARE, every turn is counted in the store', async () => {
      for (const l of [limiter(policy(2000)), leased(policy(1 / LEASE_SHARE - 1))]) {
        await l.consume('exact');
        const before = scripts;
        await sequential(l, 'exact', 5);
        expect(scripts - before).toBe(5);
      }
    });
  });
});
