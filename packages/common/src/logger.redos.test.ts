// The log redaction runs on every logged string, including ones that carry tenant content: it must stay linear
// (docs/security.md "Linear-time parsing and caps"; BOUND_MS is the quiet reference machine's, @risk/time-budget).
import { expectWithinBudget } from '@risk/time-budget';
import { redact } from './logger';

const MIB = 1 << 20;
const BOUND_MS = 1500;

describe('log redaction on hostile strings', () => {
  it.each([
    ['scheme-like runs (URL password pattern)', 'A+'.repeat(MIB / 2) + '\u0000A://:\u0000@'],
    ['JWT-like prefixes without dots', 'eyJc-'.repeat(MIB / 5)],
    ['repeated schemes without a password', 'a://'.repeat(MIB / 4)],
    ['user parts without @', 'x://u:'.repeat(MIB / 6)],
  ])('%s at 1 MiB', (_name, s) => {
    expectWithinBudget(BOUND_MS, () => redact(s));
  });

  // the marker forms are the redaction module's (docs/security.md "Secrets never reach shared data"): plain
  // `REDACTED` inside a URL (so it stays a URL), `[REDACTED]` / `[REDACTED:<kind>]` elsewhere
  it('still redacts connection URL passwords and tokens', () => {
    expect(redact('postgresql://user:pw@host/db and redis://:secret@r:6379')).toBe(
      'postgresql://user:REDACTED@host/db and redis://:REDACTED@r:6379',
    );
    expect(redact('x_a://u:p@h')).toBe('x_a://u:REDACTED@h');
    expect(redact('Authorization: Bearer abcdefgh.ijk')).toBe('Authorization: Bearer [REDACTED]');
    expect(redact('jwt eyJhbGciOiJI.eyJzdWIiOiIx.sig-123 end')).toBe('jwt [REDACTED:jwt] end');
  });
});
