// A submitted manifest as every recogniser sees it: the raw text and its views in each syntax (JSON/JSONC, TOML, YAML,
// front matter, lines), each parsed at most once and only when asked for and plausible, under the engine's bounds
// (docs/security.md "Linear-time parsing and caps").
import { parseJsonc, recoverJsonc } from '../parse/jsonc';
import { TOML_HINT } from '../parse/packages';
import { parseYaml } from '../parse/yaml';
import { isObj, type Obj } from '../util';
// smol-toml ships a CJS build (exports.require) but its typings are ESM-only, so load it with require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require('smol-toml') as {
  parse: (s: string, o?: { maxDepth?: number }) => unknown;
};

/** `key:` on the first line (a comment block before it allowed): the only texts handed to the YAML parser. */
const YAML_FIRST_LINE = /^[\w."'-]+\s*:(\s|$)/;
const FRONT_MATTER = /^\uFEFF?\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/** inline tables and arrays in TOML: the same bound as YAML and JSONC nesting */
const TOML_MAX_DEPTH = 64;
/**
 * Syntax errors a JSON or TOML document may be read past (TOML: lines left out, each retry parsing it again), and the
 * size up to which it is tried: manifests are small, and a hostile megabyte gets one parse.
 */
const RECOVERIES = 3;

/** Whether the lines left out of a recovered parse are at most a quarter of the non-blank lines. */
function mostlyKept(lines: readonly string[], leftOut: number): boolean {
  let nonBlank = leftOut; // the left-out lines are blank in `lines` now
  for (const l of lines) if (l.trim() !== '') nonBlank++;
  return leftOut * 4 <= nonBlank;
}
const RECOVERY_CHARS = 64 * 1024;

/** The first line of an error message (parsers put the offending text on the next lines). */
const firstLine = (e: unknown): string => String((e as Error)?.message ?? e).split('\n')[0] ?? 'invalid';

/** The first character that is neither a blank nor inside a leading line or block comment (JSONC may open with one). */
function firstSignificant(raw: string): string {
  let i = 0;
  const n = raw.length;
  while (i < n) {
    const c = raw[i] ?? '';
    if (c.trim() === '') i++;
    else if (c === '/' && raw[i + 1] === '/') {
      const end = raw.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && raw[i + 1] === '*') {
      const end = raw.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else return c;
  }
  return '';
}

/** One line with content: its text trimmed and its 1-based line number. */
export interface ContentLine {
  text: string;
  line: number;
}

/** Where a parsed value came from (what `ParsedManifest.format` reports). */
export type DataSyntax = 'json' | 'yaml';

export class ManifestDocument {
  /** syntax errors of the views that were tried and failed, by view (reported when no format claims the text) */
  readonly errors = new Map<'json' | 'toml' | 'yaml' | 'front matter', string>();
  /** the text starts like JSON (`{` or `[`, after blanks and comments) */
  readonly structured: boolean;
  private memo = new Map<string, unknown>();

  constructor(
    readonly raw: string,
    /** the base name of the file the signal names, if any (formats' `names`) */
    readonly fileName: string | null = null,
  ) {
    const c = firstSignificant(raw);
    this.structured = c === '{' || c === '[';
  }

  /** A value derived from the document, computed once (views and what recognisers share with parsers). */
  view<T>(key: string, make: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as T;
  }

  /** The JSON value (JSON.parse, or JSONC when that fails), or undefined when the text is not JSON. */
  json(): { value: unknown; jsonc: boolean } | undefined {
    return this.view('json', () => {
      if (!this.structured) return undefined;
      try {
        return { value: JSON.parse(this.raw) as unknown, jsonc: false };
      } catch (e) {
        try {
          return { value: parseJsonc(this.raw), jsonc: true };
        } catch {
          this.errors.set('json', firstLine(e));
          // a manifest with an odd line or two: read past them (reported), not hidden behind one syntax error
          const r = this.raw.length <= RECOVERY_CHARS ? recoverJsonc(this.raw, RECOVERIES) : null;
          if (!r) return undefined;
          this.skipped.set('json', r.lines);
          return { value: r.value, jsonc: true };
        }
      }
    });
  }

  /** Lines a view read past or left out to parse (see json() and toml()), by view. */
  readonly skipped = new Map<'json' | 'toml', number[]>();

  /**
   * The TOML document, when a line is a TOML table header and the text parses. A document that does not parse is
   * retried with the offending line left out, a few times and only for manifest-sized texts, so one odd line does not
   * hide a pyproject's dependencies; its syntax error is still reported and the lines left out are in `skipped`.
   */
  toml(): Obj | null {
    return this.view('toml', () => {
      if (!this.raw.includes('[') || !TOML_HINT.test(this.raw)) return null;
      let lines: string[] | null = null;
      for (let attempt = 0; ; attempt++) {
        try {
          const t = parseToml(lines ? lines.join('\n') : this.raw, { maxDepth: TOML_MAX_DEPTH });
          // a read past odd lines must leave most of the text TOML: a `[project]` line atop three requirement
          // pins is a requirements file with one stray line, not a pyproject with three
          if (lines && !mostlyKept(lines, this.skipped.get('toml')?.length ?? 0)) {
            this.skipped.delete('toml');
            return null;
          }
          return isObj(t) ? t : null;
        } catch (e) {
          if (attempt === 0) this.errors.set('toml', firstLine(e));
          const line = (e as { line?: unknown }).line;
          if (attempt >= RECOVERIES || this.raw.length > RECOVERY_CHARS || typeof line !== 'number') return null;
          lines ??= [...this.lines()];
          const left = this.skipped.get('toml') ?? [];
          if (line < 1 || line > lines.length || left.includes(line)) return null;
          lines[line - 1] = '';
          this.skipped.set('toml', [...left, line]);
        }
      }
    });
  }

  /** The YAML mapping, when the first line (or the first after comments) is `key:` and the text parses to one. */
  yaml(): Obj | null {
    return this.view('yaml', () => {
      const top = this.raw.trimStart().split(/\r?\n/, 1)[0] ?? '';
      if (this.structured || !(YAML_FIRST_LINE.test(top) || YAML_FIRST_LINE.test(this.firstLine()))) return null;
      try {
        const y = parseYaml(this.raw);
        return isObj(y) ? y : null;
      } catch (e) {
        this.errors.set('yaml', firstLine(e));
        return null;
      }
    });
  }

  /** JSON value, else YAML mapping: what data formats (configs, MCP files, package.json) are recognised on. */
  data(): { value: unknown; syntax: DataSyntax } | null {
    const j = this.json();
    if (j) return { value: j.value, syntax: 'json' };
    const y = this.yaml();
    return y ? { value: y, syntax: 'yaml' } : null;
  }

  /** YAML front matter (`---` … `---` first) and the body after it; `data` null when the YAML is invalid. */
  frontMatter(): { data: Obj | null; body: string } | null {
    return this.view('frontMatter', () => {
      const m = FRONT_MATTER.exec(this.raw);
      if (!m) return null;
      let data: Obj | null = null;
      try {
        const y = parseYaml(m[1] ?? '');
        data = isObj(y) ? y : null;
      } catch (e) {
        this.errors.set('front matter', firstLine(e));
      }
      return { data, body: this.raw.slice(m[0].length) };
    });
  }

  /** The physical lines (split once: a 1 MiB run of newlines is a million lines). */
  lines(): readonly string[] {
    return this.view('lines', () => this.raw.split(/\r?\n/));
  }

  /** The lines with content: trimmed, blank lines and `#` comments left out, with their line numbers. */
  content(): readonly ContentLine[] {
    return this.view('content', () => {
      const out: ContentLine[] = [];
      this.lines().forEach((l, i) => {
        const text = l.trim();
        if (text && !text.startsWith('#')) out.push({ text, line: i + 1 });
      });
      return out;
    });
  }

  /** The first line with content ('' when none). */
  firstLine(): string {
    return this.view('firstLine', () => {
      for (const l of this.lines()) {
        const t = l.trim();
        if (t && !t.startsWith('#')) return t;
      }
      return '';
    });
  }
}
