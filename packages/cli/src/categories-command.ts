// `pnpm cli categories import <csv> [--source <name>]` (docs/firewalls.md "Category data"): adds the operator's
// own AI categories and domains to Postgres, merged with the shipped lists by the admin API, without a code change.
// The whole file is validated first (every problem with its line number); a bad file stores nothing.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '@risk/common/config';
import { createPrisma } from '@risk/db';
import {
  AI_PARENT_CATEGORY,
  aiCategoryIds,
  CategoryCsvError,
  generalCategories,
  importOperatorCategories,
  parseCategoryCsv,
} from '@risk/firewalls';
import { CliError, type CliIo } from './cli-io';

const SOURCE = /^[A-Za-z0-9][A-Za-z0-9 ._:@/-]{0,99}$/;

export async function runCategoriesCommand(argv: string[], config: Config, io: CliIo): Promise<void> {
  const [action, ...rest] = argv;
  if (action !== 'import')
    throw new CliError(`unknown categories command: ${action ?? '(none)'}; try: categories import <csv>`);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { source: { type: 'string' } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new CliError('usage: categories import <file.csv> [--source <name>]');
  const source = values.source ?? `operator:${basename(file)}`;
  if (!SOURCE.test(source)) throw new CliError('--source: 1 to 100 letters, digits, spaces and . _ : @ / -');
  const size = await stat(file).then(
    (s) => s.size,
    () => -1,
  );
  if (size < 0) throw new CliError(`cannot read ${file}`);
  if (size > 10 * 1024 * 1024) throw new CliError(`${file} is larger than 10 MiB`);
  const db = createPrisma({ url: config.DATABASE_URL, applicationName: 'risk-cli', max: 2 });
  try {
    const known = await db.prisma.operatorAiCategory.findMany({ select: { id: true } });
    let parsed;
    try {
      parsed = parseCategoryCsv(await readFile(file, 'utf8'), {
        source,
        shippedCategoryIds: aiCategoryIds,
        operatorCategoryIds: new Set(known.map((c) => c.id)),
        reservedIds: new Set([AI_PARENT_CATEGORY, ...generalCategories.map((c) => c.id)]),
      });
    } catch (err) {
      if (err instanceof CategoryCsvError) throw new CliError(err.message);
      throw err;
    }
    // policies whose AI-category rules now expand differently go back to pending in the import's transaction
    const result = await importOperatorCategories(db.prisma, parsed);
    io.out(JSON.stringify({ imported: true, source, ...result }));
  } finally {
    await db.close();
  }
}
