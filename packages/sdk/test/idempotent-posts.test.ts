// Which POSTs the transport keys and retries: the generated list (src/generated/idempotent-posts.ts, kept current by
// test/generated.test.ts) matched against request paths.
import { IDEMPOTENT_POSTS, idempotentPostOf, matchesPathTemplate } from '../src/idempotent-posts';

const post = (url: string) => new Request(url, { method: 'POST' });

describe('idempotent POSTs', () => {
  test('the generated lists hold the documented idempotent POSTs of each API', () => {
    expect(IDEMPOTENT_POSTS['admin-api']).toEqual(['/keys/v1']);
    expect(IDEMPOTENT_POSTS['public-api']).toEqual(
      expect.arrayContaining(['/v1/signals', '/v1/signals/bulk', '/v1/threats', '/v1/webhooks/{webhook_id}']),
    );
  });

  test('a template matches the end of a path segment by segment, a parameter any one segment', () => {
    expect(matchesPathTemplate('/v1/webhooks/we_1/rotate_secret', '/v1/webhooks/{webhook_id}/rotate_secret')).toBe(
      true,
    );
    expect(matchesPathTemplate('/admin/keys/v1', '/keys/v1')).toBe(true);
    expect(matchesPathTemplate('/keys/v1/', '/keys/v1')).toBe(true);
    expect(matchesPathTemplate('/keys/v1/key_1', '/keys/v1')).toBe(false);
    expect(matchesPathTemplate('/v1/webhooks', '/v1/webhooks/{webhook_id}')).toBe(false);
    expect(matchesPathTemplate('/v1/webhooks/we_1/test', '/v1/webhooks/{webhook_id}/rotate_secret')).toBe(false);
  });

  test('the admin rule keys minting an API key and no other POST', () => {
    const admin = idempotentPostOf(IDEMPOTENT_POSTS['admin-api']);
    expect(admin(post('https://admin.example/keys/v1'))).toBe(true);
    expect(admin(post('https://admin.example/tenants/v1'))).toBe(false);
    expect(admin(post('https://admin.example/firewalls/v1/fw_1/test'))).toBe(false);
  });

  test('the public rule keys every documented idempotent POST, with any path parameter', () => {
    const rule = idempotentPostOf(IDEMPOTENT_POSTS['public-api']);
    expect(rule(post('https://api.example/v1/assets/hf%3Aacme%2Fm/findings/fnd_1/triage'))).toBe(true);
    expect(rule(post('https://api.example/v1/threats/thr_1'))).toBe(true);
    expect(rule(post('https://api.example/v1/not-a-route'))).toBe(false);
  });

  test('a long path prefix before the route still matches', () => {
    const rule = idempotentPostOf(IDEMPOTENT_POSTS['public-api']);
    expect(rule(post(`https://api.example/${'a/'.repeat(50_000)}v1/signals`))).toBe(true);
  });
});
