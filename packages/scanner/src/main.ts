// Process entry of `risk-scan` (bin/risk-scan.cjs loads it through tsx).
import { main } from './cli';

// `pnpm scan -- <args>` passes the separator through: a leading `--` is not an argument
const argv = process.argv.slice(2);
if (argv[0] === '--') argv.shift();

void main(argv, {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdoutIsTty: !!process.stdout.isTTY,
  stderrIsTty: !!process.stderr.isTTY,
  cwd: process.cwd(),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
