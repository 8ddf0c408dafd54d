import { z } from 'zod';
import { ApiError } from '../errors';
import { formatParamPath, parseOrThrow } from './validate';

const Body = z.strictObject({
  signals: z.array(z.strictObject({ fingerprint: z.string(), observed_at: z.int() })),
});

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected an error');
}

describe('parseOrThrow', () => {
  it('formats param paths with brackets for indices', () => {
    expect(formatParamPath(['signals', 12, 'observed_at'])).toBe('signals[12].observed_at');
  });

  it('names a missing field as missing_required_param', () => {
    const err = errorOf(() =>
      parseOrThrow(Body, { signals: [{ fingerprint: 'a', observed_at: 1 }, { observed_at: 1 }] }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('missing_required_param');
    expect(err.param).toBe('signals[1].fingerprint');
    expect(err.status).toBe(400);
  });

  it('names an unknown field as parameter_unknown', () => {
    const err = errorOf(() => parseOrThrow(Body, { signals: [], extra: 1 }));
    expect(err.code).toBe('parameter_unknown');
    expect(err.param).toBe('extra');
  });

  it('names a non-integer as parameter_invalid_integer and a wrong type as parameter_invalid', () => {
    expect(errorOf(() => parseOrThrow(Body, { signals: [{ fingerprint: 'a', observed_at: 1.5 }] })).code).toBe(
      'parameter_invalid_integer',
    );
    const wrong = errorOf(() => parseOrThrow(Body, { signals: [{ fingerprint: 7, observed_at: 1 }] }));
    expect(wrong.code).toBe('parameter_invalid');
    expect(wrong.param).toBe('signals[0].fingerprint');
  });

  it('refuses an unpaired UTF-16 surrogate anywhere (jsonb cannot store its escape), naming the field', () => {
    const Meta = z.strictObject({ name: z.string(), metadata: z.record(z.string(), z.unknown()) });
    for (const [data, param] of [
      [{ name: 'a\ud800', metadata: {} }, 'name'],
      [{ name: 'a', metadata: { tags: ['ok', 'x\udfff'] } }, 'metadata.tags[1]'],
      [{ name: 'a', metadata: { ['k\udbff']: 1 } }, 'metadata.k\udbff'],
      [{ name: 'end\ud83d', metadata: {} }, 'name'],
    ] as const) {
      const err = errorOf(() => parseOrThrow(Meta, data));
      expect(err).toMatchObject({ code: 'parameter_invalid', param });
      expect(err.message).toContain('surrogate');
    }
    // a surrogate pair (an emoji) is fine
    expect(parseOrThrow(Meta, { name: 'ok \ud83d\ude00', metadata: { e: '\ud83d\ude00' } }).name).toBe('ok 😀');
  });
});
