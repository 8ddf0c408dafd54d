// What every CLI command shares: its output streams and the error it throws for the operator. Kept apart from
// commands.ts, which imports every command, so the commands do not import it back (docs/architecture.md
// "Layering rules": no import cycles).

/** A CLI failure with a message for the operator and no stack trace. */
export class CliError extends Error {}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}
