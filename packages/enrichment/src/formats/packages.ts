// Package formats: npm package.json and locks, pyproject.toml, requirements files and uv.lock, setup.cfg
// (docs/enrichment.md "Manifests recognised").
import { isObj, type Obj } from '../util';
import {
  iniLineShare,
  isUvLock,
  looksLikeSetupCfg,
  parsePyproject,
  parseRequirements,
  parseSetupCfg,
  parseUvLock,
  requirementLines,
  type RequirementLine,
} from '../parse/packages';
import { parseNpm } from '../parse/packages-npm';
import { defineFormat } from './define';
import type { ManifestDocument } from './document';
import { dataObject, fromData, looksLikePackageJson } from './shapes';

export const NPM_PACKAGE = defineFormat({
  id: 'npm_package',
  title: 'npm package.json / package-lock.json',
  family: 'package',
  syntax: ['json'],
  summary:
    'name, version, licence, repository, author, `mcpName`, dependencies (peer and optional included) and scripts; with its lock (`metadata.package_lock`) the declared dependencies at their locked versions; a `package-lock.json`/`npm-shrinkwrap.json` (lockfile v1–v3) gives the installed versions, and a `resolved` outside the npm registry is a URL/VCS dependency',
  names: /^(?:package|package-lock|npm-shrinkwrap)\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && looksLikePackageJson(j) ? 0.6 : 0;
  },
  parse: fromData<Obj>(parseNpm),
  carries: ['licence', 'dependencies', 'launch_commands'],
  ecosystem: 'npm',
  corpus: { name: 'package_json', example: 'c055' },
});

/** pyproject.toml: PEP 621 `[project]`, PEP 735 `[dependency-groups]`, Poetry or uv tables. */
function isPyproject(t: Obj): boolean {
  return (
    !isUvLock(t) &&
    (isObj(t.project) || isObj(t['dependency-groups']) || (isObj(t.tool) && (isObj(t.tool.poetry) || isObj(t.tool.uv))))
  );
}

export const PYPROJECT = defineFormat({
  id: 'pyproject',
  title: 'pyproject.toml',
  family: 'package',
  syntax: ['toml'],
  summary:
    'PEP 621 metadata and dependencies with extras, PEP 735 `[dependency-groups]`, Poetry dependency groups, uv `dev-dependencies`; Poetry and `[tool.uv.sources]` git/url/path sources as URL/VCS requirements (a git source pinned only by a full commit `rev`); trove licence classifiers mapped to SPDX',
  names: /^pyproject\.toml$/i,
  recognise: (doc) => {
    const t = doc.toml();
    return t && isPyproject(t) ? 0.95 : 0;
  },
  parse(p, doc) {
    const t = doc.toml();
    if (!t) return;
    p.format = 'toml';
    p.raw_json = t;
    parsePyproject(p, t);
  },
  carries: ['licence', 'dependencies'],
  ecosystem: 'pypi',
  corpus: { name: 'pyproject', subformats: ['pep621', 'poetry', 'uv'], example: 'c078' },
});

/** The requirements view of a document: its logical lines, classified (computed once). */
function requirementsOf(doc: ManifestDocument): RequirementLine[] {
  return doc.view('requirements', () => requirementLines(doc.lines()));
}

/** Share of requirement lines a requirements file needs, by default and when its file name says it is one. */
export const REQUIREMENTS_SHARE = { unnamed: 0.75, named: 0.5 } as const;

export const REQUIREMENTS = defineFormat({
  id: 'requirements',
  title: 'requirements.txt / uv.lock',
  family: 'package',
  syntax: ['lines', 'toml'],
  summary:
    'pins, ranges, extras, markers, `-r`/`-c` and option lines, per-requirement `--hash` options, continuation lines, URL/VCS/editable requirements (kept as URL requirements); a `uv.lock` gives every registry package at its locked version, git sources pinned by the recorded commit and URL sources by their archive hash',
  names: /^(?:requirements[\w.-]*\.(?:txt|in)|constraints[\w.-]*\.txt|uv\.lock)$/i,
  recognise(doc, ctx) {
    const t = doc.toml();
    if (t) return isUvLock(t) ? 0.95 : 0;
    if (doc.json()) return 0;
    const lines = requirementsOf(doc);
    if (lines.length === 0) return 0;
    let valid = 0;
    let entries = 0;
    let pinned = 0;
    for (const l of lines) {
      if (l.kind === null) continue;
      valid++;
      if (l.kind !== 'option') entries++;
      if (l.kind === 'pin' || l.kind === 'url') pinned++;
    }
    const share = valid / lines.length;
    // every line a requirement: a requirements file, bare names included; with lines that are not, most of it must
    // be requirements and some of them versioned, so prose with a stray word is not taken for one
    if (entries === 0) return 0;
    if (share === 1) return 0.9;
    const need = ctx.named ? REQUIREMENTS_SHARE.named : REQUIREMENTS_SHARE.unnamed;
    return share >= need && pinned > 0 ? 0.5 + 0.4 * share : 0;
  },
  parse(p, doc) {
    const t = doc.toml();
    if (t && isUvLock(t)) {
      p.format = 'toml';
      p.raw_json = t;
      parseUvLock(p, t);
      return;
    }
    parseRequirements(p, requirementsOf(doc));
  },
  carries: ['dependencies'],
  ecosystem: 'pypi',
  corpus: { name: 'requirements', example: 'c095' },
  notes:
    'Recognised by what most of it is: lines that are not requirements (a typo, an odd `.name==1.0`) are skipped and listed (`manifest_lines_skipped`), never fatal, and every valid pin is still matched against its advisories. A lock carries no licence.',
});

export const SETUP_CFG = defineFormat({
  id: 'setup_cfg',
  title: 'setup.cfg',
  family: 'package',
  syntax: ['ini'],
  summary:
    "`[metadata]` name, version, licence (field or trove classifier) and `[options] install_requires` (continuation lines read as Python's configparser does)",
  names: /^setup\.cfg$/i,
  recognise: (doc, ctx) =>
    looksLikeSetupCfg(doc.raw) && iniLineShare(doc.lines()) >= (ctx.named ? 0.25 : 0.5) ? 0.9 : 0,
  parse: (p, doc) => parseSetupCfg(p, doc.raw),
  carries: ['licence', 'dependencies'],
  corpus: { name: 'setup_cfg', example: 'c076' },
  notes:
    'Read with a small configparser reader: the `ini` package does not join indented continuation lines, which `install_requires` uses. A setup.cfg without a `[metadata]` name holds tool settings only and carries no licence.',
});
