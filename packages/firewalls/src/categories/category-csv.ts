// Operator category data as CSV (docs/firewalls.md "Category data"; `pnpm cli categories import <csv>`):
//   domain,category,vendor[,category_name,category_description]
// One AI domain a row; `category` is an AI sub-category id, shipped or new — a new one needs `category_name` on at
// least one of its rows. Everything is validated before anything is stored: every problem is reported with its
// line number and the import writes nothing (no partial import). Domains go through tldts (the Public Suffix
// List): a registrable name or a subdomain of one, never an IP address or a bare suffix.
import { parse as parseDomain } from 'tldts';
import { isFeedHost } from '../feeds/feed-format';
import type { AiDomainEntry } from './catalog';

export const CATEGORY_CSV_MAX_ROWS = 50_000;
export const CATEGORY_CSV_MAX_BYTES = 10 * 1024 * 1024;
const REQUIRED = ['domain', 'category', 'vendor'] as const;
const OPTIONAL = ['category_name', 'category_description'] as const;
const CATEGORY_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
// printable text without control characters (they would travel into logs, responses and device configs)
const NO_CONTROL = /^[^\x00-\x1f\x7f]*$/;

export interface CategoryImport {
  categories: Array<{ id: string; name: string; description: string; source: string }>;
  domains: AiDomainEntry[];
}

export class CategoryCsvError extends Error {
  constructor(readonly problems: string[]) {
    super(`the CSV was not imported (nothing was stored):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** RFC 4180 fields of one physical line: commas, "quoted" fields with "" for a quote; null when a quote is open. */
export function csvFields(line: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  if (quoted) return null;
  fields.push(field);
  return fields.map((f) => f.trim());
}

function checkDomain(raw: string): string | null {
  const domain = raw.toLowerCase().replace(/\.$/, '');
  const parsed = parseDomain(domain);
  if (!isFeedHost(domain) || parsed.isIp || !parsed.domain || !parsed.publicSuffix || parsed.hostname !== domain)
    return null;
  return domain;
}

interface Context {
  source: string;
  shippedCategoryIds: ReadonlySet<string>;
  /** categories earlier imports created: usable without a category_name */
  operatorCategoryIds: ReadonlySet<string>;
  /** ids that are not AI sub-categories (our general categories and the AI parent): refused */
  reservedIds: ReadonlySet<string>;
}

/** Parses and validates the whole file; throws CategoryCsvError listing every problem (at most 50 shown). */
export function parseCategoryCsv(text: string, context: Context): CategoryImport {
  const problems: string[] = [];
  if (Buffer.byteLength(text) > CATEGORY_CSV_MAX_BYTES) throw new CategoryCsvError([`the file is larger than 10 MiB`]);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = csvFields(lines[0] ?? '')?.map((h) => h.toLowerCase()) ?? [];
  const unknown = header.filter((h) => ![...REQUIRED, ...OPTIONAL].includes(h as never));
  const missing = REQUIRED.filter((h) => !header.includes(h));
  if (unknown.length || missing.length) {
    throw new CategoryCsvError([
      `line 1: the header must name domain,category,vendor and may add category_name,category_description` +
        (missing.length ? `; missing: ${missing.join(', ')}` : '') +
        (unknown.length ? `; unknown: ${unknown.join(', ')}` : ''),
    ]);
  }
  const col = (fields: string[], name: string) => fields[header.indexOf(name)] ?? '';
  const seen = new Map<string, number>();
  const categories = new Map<string, { id: string; name: string; description: string; source: string }>();
  const domains: AiDomainEntry[] = [];
  const pending: Array<{ line: number; category: string }> = [];
  let rows = 0;
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i]!;
    if (!line.trim()) continue;
    if (++rows > CATEGORY_CSV_MAX_ROWS) {
      problems.push(`line ${lineNo}: more than ${CATEGORY_CSV_MAX_ROWS} rows`);
      break;
    }
    const fields = csvFields(line);
    if (!fields) {
      problems.push(`line ${lineNo}: an unterminated quoted field (a field cannot span lines)`);
      continue;
    }
    if (fields.length !== header.length) {
      problems.push(`line ${lineNo}: ${fields.length} fields, the header has ${header.length}`);
      continue;
    }
    if (fields.some((f) => !NO_CONTROL.test(f) || f.length > 500)) {
      problems.push(`line ${lineNo}: a field holds a control character or is longer than 500 characters`);
      continue;
    }
    const domain = checkDomain(col(fields, 'domain'));
    const category = col(fields, 'category').toLowerCase();
    const vendor = col(fields, 'vendor');
    const name = col(fields, 'category_name');
    if (!domain) problems.push(`line ${lineNo}: '${col(fields, 'domain')}' is not a domain under a public suffix`);
    else if (seen.has(domain)) problems.push(`line ${lineNo}: ${domain} is already on line ${seen.get(domain)}`);
    else seen.set(domain, lineNo);
    if (!CATEGORY_ID.test(category) || context.reservedIds.has(category))
      problems.push(`line ${lineNo}: '${category}' is not an AI sub-category id (lower-case letters, digits, '-')`);
    if (!vendor || vendor.length > 100) problems.push(`line ${lineNo}: vendor must be 1 to 100 characters`);
    if (name && !context.shippedCategoryIds.has(category) && !categories.has(category)) {
      categories.set(category, {
        id: category,
        name: name.slice(0, 100),
        description: col(fields, 'category_description').slice(0, 500) || name,
        source: context.source,
      });
    }
    if (!context.shippedCategoryIds.has(category)) pending.push({ line: lineNo, category });
    if (domain) domains.push({ domain, category, vendor, source: context.source });
  }
  for (const { line, category } of pending) {
    const known = categories.has(category) || context.operatorCategoryIds.has(category);
    if (!known && CATEGORY_ID.test(category) && !context.reservedIds.has(category))
      problems.push(`line ${line}: '${category}' is a new category: give it a category_name on one of its rows`);
  }
  if (!rows) problems.push('the file has no rows after its header');
  if (problems.length)
    throw new CategoryCsvError(
      problems.slice(0, 50).concat(problems.length > 50 ? [`… and ${problems.length - 50} more`] : []),
    );
  return { categories: [...categories.values()], domains };
}
