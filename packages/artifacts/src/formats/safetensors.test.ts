import { fromBytes } from '../random-access';
import { analyseSafetensors } from './safetensors';
import { datasetBytes, labelledFiles, u64le, utf8 } from '../../test/support';
import { verdictOf } from '../index';

/** A safetensors file: the header JSON (padded as the reference writer does), then `dataBytes` zero bytes. */
function safetensors(header: unknown, dataBytes: number): Uint8Array {
  let json = JSON.stringify(header);
  while ((json.length + 8) % 8 !== 0) json += ' ';
  return new Uint8Array([...u64le(json.length), ...utf8(json), ...new Array<number>(dataBytes).fill(0)]);
}

async function verdict(bytes: Uint8Array | number[]): Promise<string> {
  return verdictOf(await analyseSafetensors(fromBytes(new Uint8Array(bytes))));
}

describe('safetensors analyser on the labelled data set', () => {
  const files = labelledFiles('safetensors');

  it('has the labelled safetensors files to judge', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files.map((f) => [f.file, f.verdict] as const))('%s is %s', async (file, expected) => {
    const analysis = await analyseSafetensors(fromBytes(datasetBytes(file)));
    expect(verdictOf(analysis)).toBe(expected);
    if (expected === 'suspicious') {
      expect(analysis.findings.every((f) => f.id === 'safetensors.code_in_metadata')).toBe(true);
      expect(analysis.findings.map((f) => f.evidence.excerpt).join('\n')).toMatch(/import os|exec\(/);
    }
  });
});

describe('safetensors analyser on hand-written files', () => {
  const f32 = (shape: number[], offsets: [number, number]) => ({ dtype: 'F32', shape, data_offsets: offsets });

  // Each case is labelled (the expected verdict) before the analyser runs.
  it('accepts a consistent header with string metadata as benign', async () => {
    const bytes = safetensors({ __metadata__: { format: 'pt' }, a: f32([2, 2], [0, 16]), b: f32([1], [16, 20]) }, 20);
    const analysis = await analyseSafetensors(fromBytes(bytes));
    expect(verdictOf(analysis)).toBe('benign');
    expect(analysis.facts).toMatchObject({ tensor_count: 2, dtypes: ['F32'] });
  });

  it.each([
    ['a file shorter than the length field', [1, 0, 0]],
    ['a header length past the end of the file', [...u64le(1000), ...utf8('{}')]],
    ['a header length of 2^63', [...u64le(1n << 63n), ...utf8('{}')]],
    ['a header that is not JSON', [...u64le(4), ...utf8('{abc')]],
    ['a header that is not UTF-8', [...u64le(4), 0x7b, 0xff, 0xfe, 0x7d]],
    ['a header that is an array', [...u64le(2), ...utf8('[]')]],
  ])('calls %s invalid', async (_what, bytes) => {
    expect(await verdict(bytes)).toBe('invalid');
  });

  it.each([
    ['overlapping offsets', { a: f32([2], [0, 8]), b: f32([2], [4, 12]) }, 12],
    ['a gap between tensors', { a: f32([1], [0, 4]), b: f32([1], [8, 12]) }, 12],
    ['bytes after the last tensor', { a: f32([1], [0, 4]) }, 8],
    ['a tensor past the end of the data', { a: f32([4], [0, 16]) }, 8],
    ['a shape that disagrees with the offsets', { a: f32([3], [0, 8]) }, 8],
    ['a shape whose product overflows', { a: f32([2 ** 52, 2 ** 52, 2 ** 52], [0, 8]) }, 8],
    ['an unknown dtype', { a: { dtype: 'F33', shape: [1], data_offsets: [0, 4] } }, 4],
    ['negative offsets', { a: f32([1], [-4, 0]) }, 4],
    ['offsets that end before they begin', { a: f32([0], [4, 0]) }, 4],
    ['non-string metadata', { __metadata__: { n: 1 }, a: f32([1], [0, 4]) }, 4],
    ['metadata that is not an object', { __metadata__: 'x', a: f32([1], [0, 4]) }, 4],
  ])('calls a header with %s invalid', async (_what, header, dataBytes) => {
    expect(await verdict(safetensors(header, dataBytes))).toBe('invalid');
  });

  it('reports code in metadata as suspicious, never malicious (metadata is never executed)', async () => {
    const bytes = safetensors(
      { __metadata__: { note: "__import__('subprocess').check_output(['id'])" }, a: f32([1], [0, 4]) },
      4,
    );
    const analysis = await analyseSafetensors(fromBytes(bytes));
    expect(verdictOf(analysis)).toBe('suspicious');
    expect(analysis.findings[0]!.evidence.excerpt).toContain('note');
  });

  it('keeps prose that mentions importing or evaluating benign', async () => {
    const bytes = safetensors(
      { __metadata__: { description: 'Weights imported from the eval run; see the model card.' }, a: f32([1], [0, 4]) },
      4,
    );
    expect(await verdict(bytes)).toBe('benign');
  });

  it('accepts zero-sized tensors and sub-byte dtypes that fill whole bytes', async () => {
    const header = {
      empty: f32([0, 3], [0, 0]),
      nibbles: { dtype: 'F4', shape: [4], data_offsets: [0, 2] },
    };
    expect(await verdict(safetensors(header, 2))).toBe('benign');
  });
});
