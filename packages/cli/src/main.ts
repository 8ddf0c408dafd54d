import { loadConfigOrExit } from '@risk/common/config';
import { redact } from '@risk/common/observability';
import { loadLocalSecrets } from './local-secrets';
import { CliError } from './cli-io';
import { runCli } from './commands';

// The CLI reuses the secrets `pnpm start` generated, so keys it mints work against the local stack.
const config = loadConfigOrExit({ ...loadLocalSecrets(), ...process.env });
runCli(process.argv.slice(2), config, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof CliError) process.stderr.write(`error: ${err.message}\n`);
    // ECONNREFUSED from pg (db commands), P1001 from Prisma (api-keys commands)
    else if (['ECONNREFUSED', 'ENOTFOUND', 'P1001'].includes((err as { code?: string }).code ?? ''))
      process.stderr.write(
        `error: cannot reach Postgres at ${redact(config.DATABASE_URL) as string} — is it running?\n`,
      );
    else process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
