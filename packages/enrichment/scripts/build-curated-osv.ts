// One-off conversion of the curated advisory list (semver-range entries) into OSV records, the format every
// advisory feed uses (docs/advisories.md "Feeds"). Kept so the conversion can be re-checked:
//   tsx scripts/build-curated-osv.ts <advisories.json from git history, before the OSV format> > src/data/advisories.osv.json
import { readFileSync } from 'node:fs';

interface Old {
  id: string;
  aliases: string[];
  ecosystem: string;
  package: string;
  affected: string;
  severity: string;
  summary: string;
  fixed?: string | null;
  cvss?: string;
  cwe?: string[];
  source: string;
  verification: string;
}

const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { advisories: Old[] };
const records = input.advisories.map((a) => {
  const lower = /(?:^|\s)>=\s*(\S+)/.exec(a.affected)?.[1];
  const upperIncl = /<=\s*(\S+)/.exec(a.affected)?.[1];
  const upperExcl = /<(?!=)\s*(\S+)/.exec(a.affected)?.[1];
  // only a real vector is an OSV severity score; prose like "CVSS 9.6" stays out (the reviewed severity is kept)
  const vector = /^CVSS:[34]\.\d\/\S+/.exec(a.cvss ?? '')?.[0];
  const events: Array<Record<string, string>> = [{ introduced: lower ?? '0' }];
  if (a.fixed) events.push({ fixed: a.fixed });
  else if (upperIncl) events.push({ last_affected: upperIncl });
  else if (upperExcl) events.push({ fixed: upperExcl });
  return {
    schema_version: '1.6.0',
    id: a.id,
    modified: '2025-11-01T00:00:00Z',
    aliases: a.aliases,
    summary: a.summary,
    ...(vector ? { severity: [{ type: vector.startsWith('CVSS:4') ? 'CVSS_V4' : 'CVSS_V3', score: vector }] } : {}),
    affected: [{ package: { ecosystem: a.ecosystem, name: a.package }, ranges: [{ type: 'ECOSYSTEM', events }] }],
    references: [{ type: 'ADVISORY', url: a.source }],
    database_specific: { severity: a.severity, verification: a.verification, source: a.source, cwe_ids: a.cwe ?? [] },
  };
});
process.stdout.write(
  `${JSON.stringify(
    {
      _source:
        'The project\'s curated advisories for AI libraries and tools from the research list of AI CVEs (docs/enrichment.md "Knowledge shipped in the repository"), as OSV 1.6 records: the feed named `curated` (docs/advisories.md). Each record keeps its source URL and `verification` (primary = read in github/advisory-database or pypa/advisory-database; secondary = PR threads/vendor pages) in database_specific; database_specific.severity is the reviewed severity.',
      records,
    },
    null,
    1,
  )}\n`,
);
