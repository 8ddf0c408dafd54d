// Worst cases for the URL risk score (docs/security.md "Linear-time parsing and caps"): the URL arrives as a query
// parameter, so Node's 16 KiB header limit bounds it in practice; the score is still bounded at 1 MiB. BOUND_MS is the
// quiet reference machine's (@risk/time-budget scales it by a busy machine's measured slowdown).
import { expectWithinBudget } from '@risk/time-budget';
import { scoreUrl } from './score-url';

const BOUND_MS = 1500;
const KIB16 = 16 * 1024;
const MIB = 1 << 20;

function fill(prefix: string, pump: string, suffix: string, size: number): string {
  return prefix + pump.repeat(Math.max(1, Math.floor((size - prefix.length - suffix.length) / pump.length))) + suffix;
}

const SHAPES: Array<[string, (size: number) => string]> = [
  ['long path of slashes', (n) => fill('https://example.com', '/', 'x', n)],
  ['many labels', (n) => fill('https://', 'a.', 'com', n)],
  ['long hyphenated label', (n) => fill('https://', 'a-', 'b.com/', Math.min(n, 250))],
  ['query of embedded URLs', (n) => fill('https://example.com/?', 'http%3a//', '', n)],
  ['colons and digits', (n) => fill('', ':0', '', n)],
  ['scheme-like run', (n) => fill('', 'a+', '://x', n)],
  ['unicode host', (n) => fill('https://', 'аpple-', '.com', Math.min(n, 250))],
  ['credential keywords in the path', (n) => fill('https://example.com/', 'login-verify-', '', n)],
];

describe('scoreUrl on hostile URLs', () => {
  it.each(SHAPES)('%s at 16 KiB and 1 MiB completes within the bound', (_name, make) => {
    for (const size of [KIB16, MIB]) {
      const url = make(size);
      expectWithinBudget(BOUND_MS, () => {
        try {
          scoreUrl(url);
        } catch {
          // an unparseable URL is a 400 at the route; only the time matters here
        }
      });
    }
  });
});
