import { JSON_BODY_MAX_DEPTH, ZCreateSignalBody, ZThreatMetadata } from '@risk/contracts';
import { ApiError } from '../errors';
import { assertBodyDepth } from './body-depth';

// The body depth check (docs/security.md "JSON nesting depth") and the contracts' free-form metadata guard.
const arrays = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

function refusal(body: unknown): ApiError | undefined {
  try {
    assertBodyDepth(body);
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

describe('assertBodyDepth', () => {
  it('accepts a body nested exactly to the limit and refuses one level more, naming the first value too deep', () => {
    expect(refusal(arrays(JSON_BODY_MAX_DEPTH))).toBeUndefined();
    const err = refusal(arrays(JSON_BODY_MAX_DEPTH + 1));
    expect(err).toMatchObject({ code: 'parameter_invalid', status: 400, param: '[0]'.repeat(JSON_BODY_MAX_DEPTH) });
  });

  it('names the first value too deep in document order', () => {
    const deep = '{"a":'.repeat(40) + '1' + '}'.repeat(40);
    const body = JSON.parse(`{"ok":[1,{"b":2}],"items":[{"x":1},{"y":${deep}}],"later":${deep}}`) as unknown;
    expect(refusal(body)?.param).toBe(`items[1].y${'.a'.repeat(JSON_BODY_MAX_DEPTH - 3)}`);
  });

  it('refuses 100 000 levels without overflowing the stack', () => {
    expect(refusal(arrays(100_000))?.code).toBe('parameter_invalid');
    expect(refusal(JSON.parse('{"a":'.repeat(100_000) + 'null' + '}'.repeat(100_000)))?.code).toBe('parameter_invalid');
  });

  it('passes primitives and wide shallow bodies', () => {
    for (const body of [undefined, null, 1, 'x', Array.from({ length: 100_000 }, () => [{}])])
      expect(refusal(body)).toBeUndefined();
  });
});

describe('free-form metadata in the contracts', () => {
  it('is refused, not thrown on, when nested too deep for its size check (validated outside the APIs)', () => {
    const metadata = JSON.parse(`{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`) as Record<string, unknown>;
    const signal = ZCreateSignalBody.safeParse({
      fingerprint: 'deep:one',
      asset_type: 'model',
      org_id: 'org_x',
      observed_at: 1_700_000_000,
      metadata,
    });
    expect(signal.success).toBe(false);
    expect(signal.error?.issues[0]).toMatchObject({ path: ['metadata'], message: expect.stringContaining('levels') });
    expect(ZThreatMetadata.safeParse(metadata).success).toBe(false);
    expect(ZThreatMetadata.safeParse({ blob: 'x'.repeat(17 * 1024) }).error?.issues[0]?.message).toBe(
      'must be at most 16 KiB serialized',
    );
  });
});
