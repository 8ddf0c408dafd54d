import { parseIgnoreFile, IgnoreFileError } from '../src/riskignore';
import { readCoreMetadata } from '../src/ai-packages';
import { canonicalText } from '../src/fingerprint';

describe('.riskignore entries', () => {
  it('reads an asset, an optional rule, the reason and an optional expiry', () => {
    const entries = parseIgnoreFile(
      [
        '# comment',
        'sha256:abc  R12  reason: pinned internal server  expires: 2027-01-31',
        'filesystem * reason: read-only mount',
        'model reason: a reason that mentions expires: later',
      ].join('\n'),
    );
    expect(entries).toEqual([
      { asset: 'sha256:abc', rule: 'R12', reason: 'pinned internal server', expires: '2027-01-31', line: 2 },
      { asset: 'filesystem', rule: null, reason: 'read-only mount', expires: null, line: 3 },
      { asset: 'model', rule: null, reason: 'a reason that mentions expires: later', expires: null, line: 4 },
    ]);
  });

  it('refuses an entry without a reason, with too many words before it, or with an impossible date', () => {
    expect(() => parseIgnoreFile('model R1\n')).toThrow(IgnoreFileError);
    expect(() => parseIgnoreFile('a b c reason: x\n')).toThrow(IgnoreFileError);
    expect(() => parseIgnoreFile('a reason:\n')).toThrow(IgnoreFileError);
    expect(() => parseIgnoreFile('a reason: x expires: 2026-13-45\n')).toThrow(/bad expiry/);
  });

  it('parses hostile blank runs in one pass (the shapes a backtracking pattern stalls on)', () => {
    // the strings check:redos reported against the earlier single-pattern parser, at 1 MiB
    const blanks = '\t'.repeat(1 << 20);
    const cpu = process.cpuUsage();
    expect(() => parseIgnoreFile(`s\treason:n${blanks}\u0000`)).not.toThrow();
    expect(readCoreMetadata(`Name:${blanks}\n`)).toBeNull();
    expect(canonicalText(`a${blanks}\u0000`)).toBe(`a${blanks}\u0000`);
    expect(canonicalText(`a${blanks}\nb`)).toBe('a\nb');
    const { user } = process.cpuUsage(cpu);
    // linear work on 1 MiB is milliseconds; a quadratic pass would be hours: the bound only separates the two
    expect(user / 1000).toBeLessThan(5_000);
  });
});

describe('core metadata headers', () => {
  it('reads Name and Version up to the first blank line', () => {
    expect(readCoreMetadata('Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0\n\nName: other\n')).toEqual({
      name: 'torch',
      version: '2.1.0',
    });
    expect(readCoreMetadata('Summary: x\n')).toBeNull();
  });
});
