import { expectWithinBudget } from '@risk/time-budget';
import { compileGlob, globMatches, globPrefix } from './glob';

// Suppression globs (docs/triage.md "Suppression rules"): semantics and the linear-bounded cost.
const m = (glob: string, value: string) => globMatches(compileGlob(glob), value);

describe('fingerprint globs', () => {
  test.each([
    ['hf:acme/*', 'hf:acme/llama-3', true],
    ['hf:acme/*', 'hf:acme-evil/llama', false],
    ['*', '', true],
    ['*', 'anything/at:all', true],
    ['hf:*/lora-?', 'hf:acme/lora-1', true],
    ['hf:*/lora-?', 'hf:acme/lora-12', false],
    ['*llama*', 'hf:meta/llama-3', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['\\*star', '*star', true],
    ['\\*star', 'xstar', false],
    ['q\\?', 'q?', true],
    ['q\\?', 'qx', false],
    ['ü?', 'üß', true],
    ['', '', true],
    ['', 'x', false],
  ])('%s against %s → %s', (glob, value, expected) => {
    expect(m(glob, value)).toBe(expected);
  });

  test('no exponential case: many stars against a near miss stays within |glob| × |value| steps', () => {
    const glob = `${'*a'.repeat(128)}b`;
    const value = 'a'.repeat(512);
    const { result } = expectWithinBudget(200, () => m(glob, value));
    expect(result).toBe(false);
  });

  test('the literal prefix feeds the SQL pre-filter', () => {
    expect(globPrefix(compileGlob('hf:acme/*'))).toBe('hf:acme/');
    expect(globPrefix(compileGlob('*x'))).toBe('');
    expect(globPrefix(compileGlob('a\\*b?'))).toBe('a*b');
  });
});
