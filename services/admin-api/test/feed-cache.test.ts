// The per-process cache of rendered feeds and feed candidates (docs/feeds.md "ETag and caching").
import { FeedCache } from '../src/domain/feeds/feed-cache';

test('concurrent misses of one key share one computation, and the value is kept for the TTL', async () => {
  const cache = new FeedCache(60_000);
  let computed = 0;
  const compute = async () => {
    computed += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { n: computed };
  };
  const [a, b] = await Promise.all([cache.get('t1:candidates', compute), cache.get('t1:candidates', compute)]);
  expect(computed).toBe(1);
  expect(a).toBe(b);
  expect(await cache.get('t1:candidates', compute)).toBe(a);
  await cache.get('t2:candidates', compute); // another tenant's key is its own computation
  expect(computed).toBe(2);
});

test('a failed computation is not kept: the next call computes again', async () => {
  const cache = new FeedCache(60_000);
  await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
  await expect(cache.get('k', async () => 'fresh')).resolves.toBe('fresh');
});

test('TTL 0 caches nothing (the tests of the risk → feed loop)', async () => {
  const cache = new FeedCache(0);
  let computed = 0;
  await cache.get('k', async () => ++computed);
  await cache.get('k', async () => ++computed);
  expect(computed).toBe(2);
});
