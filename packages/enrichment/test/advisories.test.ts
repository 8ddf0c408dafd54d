import { analyze } from '../src/analyze';
import {
  CURATED_ADVISORIES,
  analyzeObservations,
  analyzeObservationsWithPackages,
  cvss3BaseScore,
  indexAdvisories,
  matchDependencies,
  normalizeOsv,
  packageNameKey,
  parseFeedFile,
  type AdvisoryRecord,
} from '../src/index';
import type { Dependency, EnrichmentInput } from '../src/types';
import { input } from './helpers';
import { loadCorpus, readManifest } from '../scripts/corpus-index';
import { packageKeysOf } from '../src/advisories/packages';
import { parseManifest } from '../src/parse';

// docs/advisories.md "Matching": OSV ranges in each ecosystem's own version order
function record(over: Record<string, unknown>): AdvisoryRecord {
  const n = normalizeOsv({ id: 'TEST-1', modified: '2024-01-01T00:00:00Z', ...over });
  if (!n.ok) throw new Error(n.error);
  return n.record;
}
const pypi = (name: string, spec: string): Dependency => ({ ecosystem: 'pypi', name, spec, path: 'requirements' });
const npm = (name: string, spec: string): Dependency => ({ ecosystem: 'npm', name, spec, path: 'dependencies' });
const hits = (recs: AdvisoryRecord[], deps: Dependency[]) =>
  matchDependencies(deps, indexAdvisories(recs)).map((m) => `${m.dependency.spec}:${m.advisory.id}`);

const SALT = record({
  id: 'PYSEC-2021-57',
  aliases: ['CVE-2021-3197'],
  affected: [
    {
      package: { ecosystem: 'PyPI', name: 'salt' },
      ranges: [
        {
          type: 'ECOSYSTEM',
          events: [
            { introduced: '0' },
            { fixed: '2015.8.10' },
            { introduced: '2018.3.0rc1' },
            { fixed: '2019.2.0rc1' },
            { introduced: '2019.2.0' },
            { fixed: '2019.2.5' },
          ],
        },
      ],
    },
  ],
});

describe('PEP 440 order (PyPI)', () => {
  it('pre-releases: an rc is inside its range and before its final release', () => {
    const specs = ['==2018.3.0rc1', '==2019.2.0rc1', '==2019.2.0', '==2015.8.9', '==2015.8.10', '==2019.2.5rc1'];
    expect(
      hits(
        [SALT],
        specs.map((s) => pypi('salt', s)),
      ),
    ).toEqual([
      '==2018.3.0rc1:PYSEC-2021-57',
      '==2019.2.0:PYSEC-2021-57',
      '==2015.8.9:PYSEC-2021-57',
      '==2019.2.5rc1:PYSEC-2021-57',
    ]);
  });
  it('post-releases, epochs and local versions', () => {
    const torch = record({
      affected: [
        {
          package: { ecosystem: 'PyPI', name: 'torch' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.13.1' }] }],
        },
      ],
    });
    const specs = ['==1.13.0.post1', '==1.13.1.post1', '==1!0.1', '==1.13.0+cpu', '==1.13.1+cu117', '==1.13.1rc1'];
    expect(
      hits(
        [torch],
        specs.map((s) => pypi('torch', s)),
      ),
    ).toEqual(['==1.13.0.post1:TEST-1', '==1.13.0+cpu:TEST-1', '==1.13.1rc1:TEST-1']);
  });
  it('last_affected is inclusive; a post-release after it is not affected', () => {
    const py = record({
      affected: [
        {
          package: { ecosystem: 'PyPI', name: 'py' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { last_affected: '1.11.0' }] }],
        },
      ],
    });
    expect(
      hits(
        [py],
        ['==1.11.0', '==1.11.0.post1', '==1.11.0rc1', '==1.12'].map((s) => pypi('py', s)),
      ),
    ).toEqual(['==1.11.0:TEST-1', '==1.11.0rc1:TEST-1']);
  });
  it('explicit versions lists match equal versions (0.5 == 0.5.0), nothing else', () => {
    const g = record({ affected: [{ package: { ecosystem: 'PyPI', name: 'gratient' }, versions: ['0.5'] }] });
    expect(
      hits(
        [g],
        ['==0.5', '==0.5.0', '==0.6', '>=0.4,<0.6'].map((s) => pypi('gratient', s)),
      ),
    ).toEqual(['==0.5:TEST-1', '==0.5.0:TEST-1']);
  });
  it('range specs match only when every allowed version is unfixed', () => {
    const lc = record({
      affected: [
        {
          package: { ecosystem: 'PyPI', name: 'LangChain' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0.0.247' }] }],
        },
      ],
    });
    const specs = ['<0.0.200', '>=0.0.100,<=0.0.246', '~=0.0.100', '<0.0.300', '>=0.0.1', '<=0.0.247', '==0.0.*'];
    expect(
      hits(
        [lc],
        specs.map((s) => pypi('langchain', s)),
      ),
    ).toEqual(['<0.0.200:TEST-1', '>=0.0.100,<=0.0.246:TEST-1']);
  });
  it('names are compared PEP 503-normalized', () => {
    expect(packageNameKey('PyPI', 'Llama_CPP.Python')).toBe('llama-cpp-python');
    const r = record({
      affected: [{ package: { ecosystem: 'PyPI', name: 'llama_cpp.python' }, versions: ['0.2.30'] }],
    });
    expect(hits([r], [pypi('Llama-CPP-Python', '==0.2.30')])).toEqual(['==0.2.30:TEST-1']);
  });
});

describe('semver order (npm)', () => {
  const mr = record({
    affected: [
      {
        package: { ecosystem: 'npm', name: 'mcp-remote' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0.0.5' }, { fixed: '0.1.16' }] }],
      },
    ],
  });
  it('pins and ranges', () => {
    const specs = ['0.1.15', '0.1.16', '0.0.4', '0.1.16-beta.1', '~0.1.10 <0.1.14', '^0.1.0', '0.1.x'];
    expect(
      hits(
        [mr],
        specs.map((s) => npm('mcp-remote', s)),
      ),
    ).toEqual(['0.1.15:TEST-1', '0.1.16-beta.1:TEST-1', '~0.1.10 <0.1.14:TEST-1']);
  });
});

describe('records', () => {
  it('withdrawn records never match', () => {
    const w = record({
      withdrawn: '2023-06-06T10:37:00Z',
      affected: [
        {
          package: { ecosystem: 'PyPI', name: 'redis' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }],
          versions: ['0.6.0'],
        },
      ],
    });
    expect(hits([w], [pypi('redis', '==0.6.0')])).toEqual([]);
  });
  it('records of the same vulnerability (id or alias shared) make one match, the curated one preferred', () => {
    const pysec = record({
      id: 'PYSEC-2022-43015',
      aliases: ['CVE-2022-45907'],
      affected: [
        {
          package: { ecosystem: 'PyPI', name: 'torch' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.13.1' }] }],
        },
      ],
    });
    const m = matchDependencies([pypi('torch', '==1.12.0')], indexAdvisories([pysec, ...CURATED_ADVISORIES]));
    // (torch 1.12.0 is also inside the curated CVE-2025-32434, another vulnerability)
    expect(m.map((x) => [x.advisory.id, x.same_as])).toEqual([
      ['CVE-2022-45907', ['PYSEC-2022-43015']],
      ['CVE-2025-32434', []],
    ]);
  });
  it('refuses records without an id or modified date, bounds hostile sizes', () => {
    expect(normalizeOsv({ modified: '2024-01-01' }).ok).toBe(false);
    expect(normalizeOsv({ id: 'X-1' }).ok).toBe(false);
    expect(normalizeOsv({ id: 'bad id with spaces', modified: '2024-01-01' }).ok).toBe(false);
    expect(normalizeOsv([]).ok).toBe(false);
    const big = normalizeOsv({
      id: 'X-2',
      modified: '2024-01-01',
      aliases: Array.from({ length: 1000 }, (_, i) => `A-${i}`),
      affected: [
        { package: { ecosystem: 'PyPI', name: 'x' }, versions: Array.from({ length: 30_000 }, (_, i) => `${i}`) },
      ],
    });
    expect(big.ok && [big.record.aliases.length, big.record.affected[0]?.versions.length]).toEqual([100, 20_000]);
  });
  it('severity from database_specific, else from a CVSS v3 vector', () => {
    expect(record({ database_specific: { severity: 'MODERATE' } }).severity).toBe('medium');
    expect(cvss3BaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe(9.8);
    expect(cvss3BaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:H/I:H/A:H')).toBe(9.6);
    expect(cvss3BaseScore('CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H')).toBe(7.8);
    expect(cvss3BaseScore('CVSS:4.0/AV:N')).toBeNull();
    expect(
      record({ severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N' }] }).severity,
    ).toBe('medium');
    expect(record({}).severity).toBeNull();
  });
  it('feed files: JSON object, JSON array, YAML, the curated wrapper; errors named', () => {
    expect(parseFeedFile('a.json', '{"id":"A"}')).toEqual({ ok: true, records: [{ id: 'A' }] });
    expect(parseFeedFile('a.json', '[{"id":"A"},{"id":"B"}]')).toMatchObject({ ok: true, records: [{}, {}] });
    expect(parseFeedFile('a.yaml', 'id: A\nmodified: "2024-01-01"\n')).toEqual({
      ok: true,
      records: [{ id: 'A', modified: '2024-01-01' }],
    });
    expect(parseFeedFile('a.json', '{"records":[{"id":"A"}]}')).toEqual({ ok: true, records: [{ id: 'A' }] });
    expect(parseFeedFile('a.json', '{oops')).toMatchObject({ ok: false, error: expect.stringMatching(/^a\.json: /) });
    // a YAML anchor that makes a cycle is refused, not handed on
    expect(parseFeedFile('a.yaml', 'a: &a [*a, *a]\n')).toMatchObject({ ok: false });
  });
});

describe('R23 with advisories passed in (the worker path)', () => {
  const reqs = 'salt==2019.2.0\ngratient==0.5\nredis==0.6.0\n';
  it('uses exactly the records given, finds CVE ids through aliases and links each id to the API', () => {
    const gratient = record({
      id: 'PYSEC-2024-1',
      affected: [{ package: { ecosystem: 'PyPI', name: 'gratient' }, versions: ['0.5'] }],
    });
    const a = analyze(input({ asset_type: 'package', raw_manifest: reqs, advisories: [SALT, gratient] }));
    const r23 = a.findings.filter((f) => f.rule_id === 'R23');
    expect(r23.map((f) => f.cve_ids)).toEqual([['CVE-2021-3197'], ['PYSEC-2024-1']]);
    expect(r23[0]?.evidence).toMatchObject({
      advisory_id: 'PYSEC-2021-57',
      references: ['/v1/advisories/PYSEC-2021-57', '/v1/advisories/CVE-2021-3197'],
      affected: '>=2019.2.0 <2019.2.5',
      fixed: '2019.2.5',
    });
    // a record without a severity counts as high, capped and discounted on a dependency like any advisory
    expect(r23[0]).toMatchObject({ severity: 'high', confidence: 0.6 });
  });
  it('the packages the worker looks up: dependencies and the asset itself, normalized', () => {
    const { packages: keys } = analyzeObservationsWithPackages([
      input({ asset_type: 'package', name: 'My_Pkg', version: '1.0', raw_manifest: reqs }),
      input({ asset_type: 'package', raw_manifest: '{"name":"x","dependencies":{"mcp-remote":"0.1.15"}}' }),
    ]);
    expect(keys.map((k) => `${k.ecosystem}:${k.name}`).sort()).toEqual(
      // the npm package declares no version: it is not looked up as itself
      ['npm:mcp-remote', 'pypi:gratient', 'pypi:my-pkg', 'pypi:redis', 'pypi:salt'].sort(),
    );
  });
  it('read off the analysis (one parse per manifest): the same packages and the same analysis, over the whole corpus', () => {
    // the worker's task takes the packages from the analysis's parsed manifests instead of parsing each one again
    // (docs/advisories.md "Enrichment"); two observations per asset, as an asset seen by two orgs
    const parsedAlone = (pair: EnrichmentInput[]) =>
      packageKeysOf(pair.map((i) => ({ input: i, parsed: parseManifest(i) })));
    const entries = loadCorpus().entries;
    const inputs = entries.map((e) =>
      input({ asset_type: e.asset_type, name: e.name, version: '1.0', raw_manifest: readManifest(e) }),
    );
    let withPackages = 0;
    inputs.forEach((one, i) => {
      const pair = [one, inputs[(i + 1) % inputs.length]!];
      const { analysis, packages } = analyzeObservationsWithPackages(pair);
      expect(packages).toEqual(parsedAlone(pair));
      expect(analysis).toEqual(analyzeObservations(pair));
      if (packages.length > 0) withPackages++;
    });
    expect(withPackages).toBeGreaterThan(20); // the corpus has dependency manifests, not only model cards
  });
});
