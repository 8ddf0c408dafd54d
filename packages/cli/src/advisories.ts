// `pnpm cli advisories import|sync` (docs/advisories.md "Import"): load an OSV feed into Postgres, print a progress
// bar on stderr and the counts as JSON on stdout. The assets whose packages' advisories changed get enrichment
// outbox rows; a running worker's outbox relay enqueues them (no Redis needed here).
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '@risk/common/config';
import { createPrisma } from '@risk/db';
import { FEED_NAME, fetchFeedUrl, importAdvisoryFeed, readFeedPath, type FeedFile } from '@risk/worker';
import { CliError, type CliIo } from './cli-io';

export const ADVISORIES_USAGE = `  advisories import <dir|zip|file> [--source <name>]
                                  load OSV records (JSON or YAML; a file, a tree, or an OSV all.zip) as the
                                  feed <name> (default: the file or directory name); prints counts as JSON
  advisories sync --url <http(s) url> [--source <name>]
                                  the same from a URL (e.g. https://osv-vulnerabilities.storage.googleapis.com/PyPI/all.zip)`;

/** `[#######-------------] 1000/2661`: one line per batch (stderr may be a log, not a terminal). */
export function progressBar(done: number, total: number, width = 30): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
}

function defaultSource(from: string): string {
  let path = from.split(/[?#]/)[0] ?? '';
  // trailing slashes dropped by a loop: `\/+$` would rescan every run of slashes (docs/security.md, ReDoS)
  while (path.endsWith('/')) path = path.slice(0, -1);
  const name = basename(path)
    .replace(/\.(?:zip|json|ya?ml)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  return name.slice(0, 63) || 'feed';
}

export async function runAdvisories(
  command: { action: string | undefined; rest: string[] },
  config: Config,
  io: CliIo,
) {
  const { action, rest } = command;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { source: { type: 'string' }, url: { type: 'string' } },
    allowPositionals: true,
  });
  let files: FeedFile[];
  let from: string;
  if (action === 'import') {
    from = positionals[0] ?? '';
    if (!from) throw new CliError('usage: advisories import <dir|zip|file> [--source <name>]');
    files = await readFeedPath(from).catch((err: Error) => {
      throw new CliError(`cannot read ${from}: ${err.message}`);
    });
  } else if (action === 'sync') {
    from = values.url ?? '';
    if (!/^https?:\/\//i.test(from)) throw new CliError('usage: advisories sync --url <http(s) url> [--source <name>]');
    io.err(`fetching ${from}`);
    files = await fetchFeedUrl(from).catch((err: Error) => {
      throw new CliError(`cannot fetch the feed: ${err.message}`);
    });
  } else throw new CliError(`unknown advisories command: ${action ?? '(none)'}\n\n${ADVISORIES_USAGE}`);
  const source = values.source ?? defaultSource(from);
  if (!FEED_NAME.test(source))
    throw new CliError('--source takes lower-case letters, digits and . _ - (max 63), starting with a letter or digit');
  const db = createPrisma({ url: config.DATABASE_URL, applicationName: 'risk-cli', max: 2 });
  try {
    io.err(`importing ${files.length} file(s) as feed '${source}'`);
    const result = await importAdvisoryFeed(
      { pool: db.pool },
      { source, files, onProgress: (p) => io.err(`advisories ${progressBar(p.done, p.total)}`) },
    );
    io.out(JSON.stringify(result));
  } finally {
    await db.close();
  }
}
