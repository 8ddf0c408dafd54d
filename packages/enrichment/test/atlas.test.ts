import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATLAS_TACTICS, ATLAS_TECHNIQUES, ATLAS_VERSION, atlasTechnique } from '../src/atlas';
import { convertAtlas } from '../scripts/build-atlas';
import { defineRule, RULES } from '../src/rules';

/** Every `.ts` file under a folder (recursive). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('shipped MITRE ATLAS data', () => {
  it('is the full 5.6.0 release: 170 techniques and sub-techniques, 16 tactics, each with name, tactics and URL', () => {
    expect(ATLAS_VERSION).toBe('5.6.0');
    expect(ATLAS_TECHNIQUES.size).toBe(170);
    expect(ATLAS_TACTICS.size).toBe(16);
    for (const t of ATLAS_TECHNIQUES.values()) {
      expect(t.id).toMatch(/^AML\.T\d{4}(?:\.\d{3})?$/);
      expect(t.url).toBe(`https://atlas.mitre.org/techniques/${t.id}`);
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.tactics.length).toBeGreaterThan(0);
      for (const ta of t.tactics) expect(ATLAS_TACTICS.has(ta)).toBe(true);
      if (t.subtechnique_of) expect(t.id.startsWith(`${t.subtechnique_of}.`)).toBe(true);
    }
    // a sub-technique inherits its parent's tactics
    expect(atlasTechnique('AML.T0010.005')).toMatchObject({ name: 'AI Agent Tool', subtechnique_of: 'AML.T0010' });
    expect(atlasTechnique('AML.T0010.005')?.tactics).toEqual(atlasTechnique('AML.T0010')?.tactics);
    // techniques the previous subset lacked are there now
    expect(atlasTechnique('AML.T0025')?.name).toBe('Exfiltration via Cyber Means');
  });

  it('scripts/build-atlas.ts keeps ids, names, tactics (inherited by sub-techniques), URLs and the version', () => {
    // the shape of mitre-atlas/atlas-data dist/ATLAS.yaml, cut to one tactic and two techniques
    const yaml = `id: ATLAS
version: 5.6.0
matrices:
- id: ATLAS
  tactics:
  - id: AML.TA0004
    name: Initial Access
    description: long text dropped
  techniques:
  - id: AML.T0010
    name: AI Supply Chain Compromise
    description: long text dropped
    tactics:
    - AML.TA0004
  - id: AML.T0010.005
    name: AI Agent Tool
    subtechnique-of: AML.T0010
`;
    const out = convertAtlas(yaml, 'c0ffee');
    expect(out.version).toBe('5.6.0');
    expect(out._source).toContain('@c0ffee');
    expect(out.tactics).toEqual([
      { id: 'AML.TA0004', name: 'Initial Access', url: 'https://atlas.mitre.org/tactics/AML.TA0004' },
    ]);
    expect(out.techniques).toEqual([
      {
        id: 'AML.T0010',
        name: 'AI Supply Chain Compromise',
        tactics: ['AML.TA0004'],
        url: 'https://atlas.mitre.org/techniques/AML.T0010',
      },
      {
        id: 'AML.T0010.005',
        name: 'AI Agent Tool',
        tactics: ['AML.TA0004'],
        subtechnique_of: 'AML.T0010',
        url: 'https://atlas.mitre.org/techniques/AML.T0010.005',
      },
    ]);
    expect(() =>
      convertAtlas(yaml.replace('- AML.TA0004\n  - id: AML.T0010.005', '- AML.TA0099\n  - id: AML.T0010.005'), 'x'),
    ).toThrow(/unknown tactic AML\.TA0099/);
    expect(() => convertAtlas('id: other\n', 'x')).toThrow(/not an ATLAS\.yaml/);
  });

  it('every technique id a rule cites (definitions and per-finding overrides) exists in the shipped data', () => {
    for (const r of RULES) for (const t of r.attack_techniques) expect([t, !!atlasTechnique(t)]).toEqual([t, true]);
    const cited = sources(join(__dirname, '..', 'src', 'rules')).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/AML\.T\d{4}(?:\.\d{3})?/g)].map((m) => m[0]),
    );
    expect(cited.length).toBeGreaterThan(20);
    for (const t of new Set(cited)) expect([t, !!atlasTechnique(t)]).toEqual([t, true]);
  });

  it('defineRule refuses a technique id that is not in ATLAS', () => {
    expect(() =>
      defineRule({
        id: 'X2',
        title: 'x',
        severity: 'low',
        weight: 5,
        category: 'x',
        rationale: 'x',
        remediation: 'x',
        attack_techniques: ['AML.T9999'],
        references: ['x'],
        evaluate: () => [],
      }),
    ).toThrow(/AML\.T9999 not in MITRE ATLAS 5\.6\.0/);
  });
});
