import { randomBytes } from 'node:crypto';
import { ENCRYPTED_BODY_PREFIX, replayBodyOf, storedBodyOf } from './idempotency';

describe('idempotency stored bodies', () => {
  const key = randomBytes(32).toString('hex');
  const body = JSON.stringify({ object: 'webhook_endpoint', id: 'we_1', secret: 'whsec_c2VjcmV0' });

  it('without a secrets key the body is stored and replayed as plaintext JSON', () => {
    expect(storedBodyOf(body)).toBe(body);
    expect(replayBodyOf(body)).toBe(body);
    expect(replayBodyOf(body, { secretsKey: key })).toBe(body); // a plaintext row replays on an encrypting route too
  });

  it('with a secrets key the body is stored encrypted (enc: prefix, fresh IV) and replays as the original', () => {
    const stored = storedBodyOf(body, { secretsKey: key });
    expect(stored.startsWith(ENCRYPTED_BODY_PREFIX)).toBe(true);
    expect(stored).not.toContain('whsec_');
    expect(stored).not.toContain('c2VjcmV0');
    expect(storedBodyOf(body, { secretsKey: key })).not.toBe(stored);
    expect(replayBodyOf(stored, { secretsKey: key })).toBe(body);
  });

  it('an encrypted body is not replayed without the key, or with another key', () => {
    const stored = storedBodyOf(body, { secretsKey: key });
    expect(() => replayBodyOf(stored)).toThrow(/SECRETS_KEY/);
    expect(() => replayBodyOf(stored, { secretsKey: randomBytes(32).toString('hex') })).toThrow();
  });
});
