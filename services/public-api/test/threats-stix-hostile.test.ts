import { currentSlowdown } from '@risk/time-budget';
import request from 'supertest';
import { idem, type Harness } from './harness';
import { example, stixSuite, type Bundle } from './threats-stix-fixtures';

// STIX 2.1 exchange (docs/threats.md "STIX exchange"). Shared setup: threats-stix-fixtures.ts.

let h: Harness;
const suite = stixSuite('stix-hostile');
const { auth, importBundle, threatCount } = suite;
beforeAll(() => {
  ({ h } = suite.state);
});

describe('hostile bundles: 400 with the envelope, nothing written', () => {
  const base = () => structuredClone(example('indicators-for-C2-with-COA.json'));
  const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
  test.each<[string, (b: Bundle) => unknown, string]>([
    [
      'a pattern that is not STIX',
      (b) => ((b.objects[3]!.pattern = "[file:hashes.'SHA-256' = 'x' AND"), b),
      'objects[3].pattern',
    ],
    [
      'a pattern nested too deeply',
      (b) => ((b.objects[3]!.pattern = '('.repeat(40) + "[a:b = 'x']" + ')'.repeat(40)), b),
      'objects[3].pattern',
    ],
    // deeper than a bundle's 16 levels, within any body's 32
    ['an object nested 20 deep', (b) => ((b.objects[1]!.x_deep = deep(20)), b), 'objects'],
    // deeper than any body's 32 levels: refused before validation, naming the first value too deep
    ['an object nested 40 deep', (b) => ((b.objects[1]!.x_deep = deep(40)), b), `objects[1].x_deep${'.a'.repeat(29)}`],
    ['a repeated id', (b) => (b.objects.push({ ...b.objects[1]! }), b), 'objects[8].id'],
    [
      'an id of another type',
      (b) => ((b.objects[1]!.id = 'indicator--fdd60b30-b67c-41e3-b0b9-f01faf20d111'), b),
      'objects[1].id',
    ],
    ['not a bundle', (b) => ({ ...b, type: 'report' }), 'type'],
    ['too many objects', (b) => ({ ...b, objects: Array.from({ length: 1001 }, () => b.objects[0]) }), 'objects'],
    ['an unknown bundle field', (b) => ({ ...b, extra: 1 }), 'extra'],
  ])('%s', async (_label, mutate, param) => {
    const before = await threatCount();
    const res = await importBundle(mutate(base()));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(await threatCount()).toBe(before);
  });

  test('a 3 MiB bundle is 413 before it is parsed', async () => {
    const b = base();
    b.objects[1]!.description = 'x'.repeat(3 * 1024 * 1024);
    const res = await importBundle(b);
    expect(res.status).toBe(413);
  });

  test('a 16 KiB pattern of hostile text answers at once (linear parser)', async () => {
    const b = base();
    b.objects[3]!.pattern = '[a:b = ' + "'\\\\".repeat(5000);
    const started = Date.now();
    const res = await importBundle(b);
    expect(res.status).toBe(400);
    // the reference machine's 2 s, scaled by this machine's measured slowdown (@risk/time-budget)
    expect(Date.now() - started).toBeLessThan(2000 * currentSlowdown());
  });

  test('the same Idempotency-Key replays the first report; a read-only key is 403', async () => {
    const key = idem();
    const send = () => request(h.app).post('/v1/threats/import').set(auth()).set('Idempotency-Key', key).send(base());
    const [a, b] = [await send(), await send()];
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    const readOnly = await h.mintKey({ scopes: ['threats:read'] });
    expect((await importBundle(base(), readOnly)).status).toBe(403);
  });
});
