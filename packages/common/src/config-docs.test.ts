// README "Configuration" is the operator's list of settings: every key of ConfigSchema appears in its table with its
// default and a meaning, and the table names nothing the platform does not read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigSchema } from './config';

const README = path.resolve(__dirname, '../../../README.md');

/** Variables in the table that ConfigSchema does not hold, and who reads them. */
const READ_ELSEWHERE: Record<string, string> = {
  // the OpenTelemetry specification's variable, read by telemetry/tracing.ts (tracingEndpoint)
  OTEL_EXPORTER_OTLP_ENDPOINT: 'telemetry/tracing.ts',
};

interface Row {
  key: string;
  defaultCell: string;
  meaning: string;
}

function configurationTable(markdown: string): Row[] {
  const start = markdown.indexOf('\n## Configuration\n');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | `KEY` | default | meaning |  → ['', '`KEY`', default, meaning, '']
    const key = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '')?.[1];
    if (key) rows.push({ key, defaultCell: cells[2] ?? '', meaning: cells[3] ?? '' });
  }
  return rows;
}

describe('README configuration table', () => {
  const rows = configurationTable(readFileSync(README, 'utf8'));
  const keys = Object.keys(ConfigSchema.shape);

  it('lists every key of the config schema once', () => {
    const listed = rows.map((r) => r.key);
    expect(keys.filter((k) => !listed.includes(k))).toEqual([]);
    expect(listed.filter((k, i) => listed.indexOf(k) !== i)).toEqual([]);
  });

  it('lists nothing the platform does not read', () => {
    expect(rows.map((r) => r.key).filter((k) => !keys.includes(k) && !(k in READ_ELSEWHERE))).toEqual([]);
  });

  it('gives each one a default and a meaning', () => {
    expect(rows.filter((r) => !r.defaultCell || r.meaning.length < 10).map((r) => r.key)).toEqual([]);
  });

  it("states each schema default as the schema's own value", () => {
    const defaults = ConfigSchema.parse({}) as Record<string, unknown>;
    const wrong: string[] = [];
    for (const { key, defaultCell } of rows) {
      const value = defaults[key];
      if (value === undefined) continue; // optional: the table says unset, or what stands in (PUBLIC_API_BASE_URL)
      const stated = value === '' ? /^empty$/.test(defaultCell) : defaultCell.startsWith(`\`${String(value)}\``);
      if (!stated) wrong.push(`${key}: schema ${JSON.stringify(value)}, README ${defaultCell}`);
    }
    expect(wrong).toEqual([]);
  });
});
