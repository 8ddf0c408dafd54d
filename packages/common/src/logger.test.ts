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

  it('redact leaves ordinary values alone', () => {
    expect(redact({ a: 1, b: 'hello', c: [true] })).toEqual({ a: 1, b: 'hello', c: [true] });
  });
});
