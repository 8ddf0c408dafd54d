// The STIX 2.1 pieces of src/exchange (docs/formats.md "STIX"): the pattern parser (the whole grammar, linear time,
// bounded nesting), the fingerprints a pattern identifies, UUIDv5 ids and the export's patterns round-tripping.
import {
  buildStixBundle,
  fingerprintOf,
  observationFor,
  parseStixPattern,
  planStixImport,
  StixBundleError,
  StixPatternError,
  uuidV5,
} from '../src';
import { expectWithinBudget } from '@risk/time-budget';

describe('parseStixPattern', () => {
  test.each([
    "[file:hashes.'SHA-256' = 'ef53']",
    "[url:value = 'https://x.example/a'] OR [domain-name:value = 'evil.example']",
    "[a:b = 'x' AND (c:d.'e'[*].f IN ('a', 'b') OR g:h > 5)] WITHIN 5 SECONDS FOLLOWEDBY [x:y = t'2020-01-01T00:00:00Z']",
    "([a:b NOT LIKE 'x%'] AND [c:d MATCHES '^a+$']) REPEATS 2 TIMES",
    "[a:b[0].c ISSUBSET '10.0.0.0/8'] START t'2020-01-01T00:00:00Z' STOP t'2021-01-01T00:00:00Z'",
    "[network-traffic:dst_port >= 443 AND network-traffic:src_ref.value != '1.2.3.4']",
    "[artifact:payload_bin = b'aGVsbG8='] AND [x:flag = true] AND [x:y = h'ff00']",
    "[email-message:body_multipart[*].body_raw_ref.name MATCHES '^Final Report.+\\\\.exe$']",
  ])('parses %s', (pattern) => {
    expect(parseStixPattern(pattern).length).toBeGreaterThan(0);
  });

  test('keeps operators, negation, escaped quotes and IN sets', () => {
    expect(parseStixPattern("[x-risk-asset:fingerprint IN ('a\\'b', 'c\\\\d') AND file:name NOT = 'z']")).toEqual([
      { object_type: 'x-risk-asset', path: ['fingerprint'], operator: 'IN', negated: false, values: ["a'b", 'c\\d'] },
      { object_type: 'file', path: ['name'], operator: '=', negated: true, values: ['z'] },
    ]);
  });

  test.each([
    ['', "expected '[' or '('"],
    ["[a:b = 'x'", "expected ']'"],
    ["[a:b = 'x\\q']", 'invalid escape'],
    ["[a:b ~ 'x']", 'comparison operator'],
    ["[A:b = 'x']", 'object type'],
    ["[a:b = 'x'] WITHIN SECONDS", 'number'],
    ["[a:b = 'x'] trailing", 'unexpected text'],
    ['('.repeat(40) + "[a:b = 'x']" + ')'.repeat(40), 'nested too deeply'],
  ])('rejects %j (%s)', (pattern, message) => {
    expect(() => parseStixPattern(pattern)).toThrow(StixPatternError);
    expect(() => parseStixPattern(pattern)).toThrow(message);
  });

  test('hostile input of the maximum length is answered in linear time', () => {
    const inputs = [
      '['.repeat(16_000),
      "[a:b = '" + "\\'".repeat(8_000),
      '[' + Array(1_000).fill("a:b = 'x'").join(' OR ').slice(0, 16_000),
      "[a:b IN ('x'" + ",'x'".repeat(3_900) + ')]',
    ];
    for (const input of inputs) {
      expectWithinBudget(200, () => {
        try {
          parseStixPattern(input);
        } catch {
          // refused is fine; the time is what is checked
        }
      });
    }
    expect(() => parseStixPattern('['.repeat(20_000))).toThrow('pattern too long');
  });
});

describe('fingerprints and ids', () => {
  const first = (pattern: string) => parseStixPattern(pattern).flatMap(fingerprintOf);
  test('file SHA-256, registry URLs, other URLs, domains and x-risk-asset identify assets; the rest does not', () => {
    expect(first(`[file:hashes.'SHA-256' = '${'AB'.repeat(32)}']`)).toEqual([`sha256:${'ab'.repeat(32)}`]);
    expect(first("[file:hashes.MD5 = 'abc']")).toEqual([]);
    expect(first("[url:value = 'https://huggingface.co/acme/model']")).toEqual(['hf:acme/model']);
    expect(first("[url:value = 'https://huggingface.co/datasets/acme/data/']")).toEqual(['hf:datasets/acme/data']);
    expect(first("[url:value = 'https://www.npmjs.com/package/@scope/pkg']")).toEqual(['npm:@scope/pkg']);
    expect(first("[url:value = 'https://pypi.org/project/torch/']")).toEqual(['pypi:torch']);
    expect(first("[url:value = 'https://evil.example/x']")).toEqual(['url:https://evil.example/x']);
    expect(first("[domain-name:value = 'Evil.Example']")).toEqual(['domain:evil.example']);
    expect(first("[domain-name:value != 'a.example' AND url:value LIKE 'x%']")).toEqual([]);
    expect(first("[ipv4-addr:value = '10.0.0.1']")).toEqual([]);
  });

  test('every fingerprint survives export as a pattern and import back', () => {
    const fps = ['hf:a/b', 'hf:datasets/a/b', `sha256:${'0f'.repeat(32)}`, 'npm:@s/p', 'pypi:x-y', 'domain:e.example'];
    fps.push('url:https://e.example/p?q=1', "odd:it's \\ here", 'hf:org/model@1');
    for (const fp of fps) expect(first(observationFor(fp))).toEqual([fp]);
  });

  test('UUIDv5 is RFC 9562 (the DNS example) and export ids are stable', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
    const threat = {
      id: 'thr_1',
      category: 'other',
      title: 't',
      description: null,
      severity: 'low',
      confidence: null,
      affected_asset_types: [],
      fingerprints: ['hf:a/b'],
      attack_techniques: [],
      cve_id: null,
      remediation: null,
      source: null,
      risk_penalty: 0,
      created_by_org: 'org_a',
      created: 1_700_000_000,
      updated: 1_700_000_000,
    };
    expect(buildStixBundle([threat])).toEqual(buildStixBundle([threat]));
  });
});

describe('planStixImport', () => {
  const indicator = (id: string, pattern: string, extra: Record<string, unknown> = {}) => ({
    type: 'indicator',
    id: `indicator--${id}`,
    pattern,
    pattern_type: 'stix',
    ...extra,
  });
  test('a bad pattern refuses the whole bundle, naming the object', () => {
    const objects = [indicator('00000000-0000-4000-8000-000000000001', "[a:b = 'x'"), { type: 'identity', id: 'x' }];
    expect(() => planStixImport(objects, 'bundle--1')).toThrow(StixBundleError);
  });
  test('benign, expired, revoked and non-STIX indicators are skipped with their reason', () => {
    const plan = planStixImport(
      [
        indicator('00000000-0000-4000-8000-000000000001', "[domain-name:value = 'a.example']", {
          indicator_types: ['benign'],
        }),
        indicator('00000000-0000-4000-8000-000000000002', "[domain-name:value = 'a.example']", {
          valid_until: '2001-01-01T00:00:00Z',
        }),
        indicator('00000000-0000-4000-8000-000000000003', "[domain-name:value = 'a.example']", { revoked: true }),
        { ...indicator('00000000-0000-4000-8000-000000000004', 'rule x { condition: true }'), pattern_type: 'yara' },
      ],
      'bundle--1',
    );
    expect(plan.drafts).toEqual([]);
    expect([...plan.skipped.values()].map((s) => s.reason)).toEqual([
      'benign',
      'expired',
      'revoked',
      'unsupported_pattern_type',
    ]);
  });
  test('related attack-patterns give ATLAS techniques (ATT&CK ids go to metadata), CVEs and remediation', () => {
    const ind = indicator('00000000-0000-4000-8000-000000000001', "[url:value = 'https://huggingface.co/a/b']");
    const ap = {
      type: 'attack-pattern',
      id: 'attack-pattern--00000000-0000-4000-8000-000000000002',
      name: 'Backdoor',
      external_references: [
        { source_name: 'mitre-atlas', external_id: 'AML.T0018' },
        { source_name: 'mitre-attack', external_id: 'T1195.002' },
      ],
    };
    const vuln = {
      type: 'vulnerability',
      id: 'vulnerability--00000000-0000-4000-8000-000000000003',
      name: 'x',
      external_references: [{ source_name: 'cve', external_id: 'CVE-2024-1111' }],
    };
    const coa = { type: 'course-of-action', id: 'course-of-action--00000000-0000-4000-8000-000000000004', name: 'Fix' };
    const rel = (n: number, s: string, t: string) => ({
      type: 'relationship',
      id: `relationship--00000000-0000-4000-8000-00000000001${n}`,
      source_ref: s,
      target_ref: t,
    });
    const plan = planStixImport(
      [ind, ap, vuln, coa, rel(1, ind.id, ap.id), rel(2, ind.id, vuln.id), rel(3, coa.id, ind.id)],
      'bundle--1',
    );
    expect(plan.drafts).toHaveLength(1);
    expect(plan.drafts[0]!.fields).toMatchObject({
      fingerprints: ['hf:a/b'],
      attack_techniques: ['AML.T0018'],
      cve_id: 'CVE-2024-1111',
      remediation: 'Fix',
      category: 'vulnerable_dependency',
    });
    expect(plan.drafts[0]!.stix.mitre_attack).toEqual(['T1195.002']);
    expect(plan.skipped.size).toBe(0);
  });
});
