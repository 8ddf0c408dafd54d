import { Writable } from 'node:stream';
import { createLogger, redact, requestContext } from './logger';

describe('logger', () => {
  it('redacts secret keys and credential-looking values, and carries the request id', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _e, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = createLogger({ service: 't', level: 'info', stream });
    logger.transports.filter((t) => t.constructor.name === 'Console').forEach((t) => logger.remove(t));
    requestContext.run({ request_id: 'req_123' }, () => {
      logger.info('created firewall', {
        api_token: 'plain-token-value',
        nested: { authorization: 'Bearer abc.def.ghi', note: 'key rk_live_abcdefghijklmnop' },
      });
    });
    await new Promise((r) => setImmediate(r));
    const out = lines.join('');
    expect(out).not.toContain('plain-token-value');
    expect(out).not.toContain('abc.def.ghi');
    expect(out).not.toContain('rk_live_abcdefghijklmnop');
    const parsed = JSON.parse(lines[0]!);
    expect(parsed.request_id).toBe('req_123');
    expect(parsed.api_token).toBe('[REDACTED]');
    expect(parsed.service).toBe('t');
  });

  it('redacts *_token/*_secret keys, tenant JWTs, admin tokens, URL passwords and error stacks', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJ0ZW5hbnQifQ.c2lnbmF0dXJlLXZhbHVl';
    const err = new Error('connect failed for redis://:hunter2secret@redis:6379 using rk_test_abcdefghijklmnop');
    const out = redact({
      tenant_token: 'tt-value',
      client_secret: 'cs-value',
      token_id: 'tok_123',
      msg: `got ${jwt} and adm_AAAAAAAAAAAAAAAAAAAAAAAA`,
      url: 'postgresql://postgres:s3cret@db:5432/risk',
      err,
    }) as Record<string, unknown>;
    const text = JSON.stringify(out);
    for (const secret of [
      'tt-value',
      'cs-value',
      jwt,
      'adm_AAAA',
      's3cret',
      'hunter2secret',
      'rk_test_abcdefghijklmnop',
    ])
      expect(text).not.toContain(secret);
    expect(out.token_id).toBe('tok_123');
    // inside a URL the marker has no brackets, so the URL stays valid (docs/security.md)
    expect(out.url).toBe('postgresql://postgres:REDACTED@db:5432/risk');
    expect((out.err as { stack: string }).stack).toContain('redis://:REDACTED@redis:6379');
  });

  it("redact keeps a __proto__ key as a key (redacted like any other), not as the copy's prototype", () => {
    const out = redact(JSON.parse('{"a":{"__proto__":{"api_token":"plain-token-value","n":1}}}'));
    expect(JSON.stringify(out)).toBe('{"a":{"__proto__":{"api_token":"[REDACTED]","n":1}}}');
    expect(Object.getPrototypeOf((out as { a: object }).a)).toBe(Object.prototype);
  });

  it('redact leaves ordinary values alone', () => {
    expect(redact({ a: 1, b: 'hello', c: [true] })).toEqual({ a: 1, b: 'hello', c: [true] });
  });
});
