// Ollama Modelfiles: FROM, ADAPTER, SYSTEM, TEMPLATE, LICENSE, PARAMETER.
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import type { ParsedManifest } from '../types';
import { hasLineTerminator, isSpaceChar } from '../util';

// the directive keyword only; the value is cut off by `modelfileDirective` (was `\b\s*(.*)$`, quadratic on blanks)
const MODELFILE_KEYWORD = /^\s*(FROM|PARAMETER|SYSTEM|TEMPLATE|ADAPTER|LICENSE|MESSAGE|REQUIRES)\b/i;

/**
 * `KEYWORD value` of a Modelfile line: what `/^\s*(FROM|…)\b\s*(.*)$/i` captured, without its backtracking — the value
 * is the rest after the keyword and its blanks, and the line matches only if that rest has no line break (`.` stops
 * at one).
 */
export function modelfileDirective(line: string): { keyword: string; value: string } | null {
  const m = MODELFILE_KEYWORD.exec(line);
  if (!m || !m[1]) return null;
  let i = m[0].length;
  while (i < line.length && isSpaceChar(line[i])) i++;
  const value = line.slice(i);
  return hasLineTerminator(value) ? null : { keyword: m[1], value };
}

export type Modelfile = NonNullable<ParsedManifest['modelfile']>;

function quoteCount(s: string): number {
  let n = 0;
  for (let k = 0; k < s.length; k++) if (s[k] === '"') n++;
  return n;
}

/** The directives of a Modelfile; null when it has no FROM or most of its lines are not directives. */
export function readModelfile(lines: readonly string[]): Modelfile | null {
  let from: string | null = null;
  const mf = {
    from: null as string | null,
    adapters: [] as string[],
    system: null as string | null,
    template: null as string | null,
    license: null as string | null,
    parameters: {} as Record<string, string>,
  };
  let directives = 0;
  let other = 0;
  let i = 0;
  const readValue = (first: string): string => {
    const t = first.trim();
    if (t.startsWith('"""')) {
      let acc = t.slice(3);
      if (acc.endsWith('"""') && acc.length >= 3) return acc.slice(0, -3);
      while (++i < lines.length) {
        const l = lines[i] ?? '';
        const end = l.indexOf('"""');
        if (end >= 0) {
          acc += '\n' + l.slice(0, end);
          break;
        }
        acc += '\n' + l;
      }
      return acc.trim();
    }
    // a value that opens a double-quoted string it does not close on its line (`MESSAGE assistant "…`, `TEMPLATE "…`)
    // runs to the next line holding an odd number of quotes: those lines are the value, not stray text
    if (quoteCount(t) % 2 === 1) {
      let acc = t;
      while (++i < lines.length) {
        const l = lines[i] ?? '';
        acc += '\n' + l;
        if (quoteCount(l) % 2 === 1) break;
      }
      return acc.length >= 2 && acc.startsWith('"') && acc.endsWith('"') ? acc.slice(1, -1) : acc;
    }
    return t.replace(/^"(.*)"$/, '$1');
  };
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const m = modelfileDirective(line);
    if (!m) {
      other++;
      continue;
    }
    directives++;
    const d = m.keyword.toUpperCase();
    const v = readValue(m.value);
    if (d === 'FROM') from = from ?? v;
    else if (d === 'ADAPTER') mf.adapters.push(v);
    else if (d === 'SYSTEM') mf.system = v;
    else if (d === 'TEMPLATE') mf.template = v;
    else if (d === 'LICENSE') mf.license = v;
    else if (d === 'PARAMETER') {
      const [k, ...rest] = v.split(/\s+/);
      if (k) mf.parameters[k] = rest.join(' ');
    }
  }
  // a Modelfile by what most of it is: directives (and their quoted blocks), not one FROM among other text
  if (!from || directives < 1 || other > directives) return null;
  mf.from = from;
  return mf;
}

/**
 * A FROM that is a template placeholder (`{{BASE}}`, `${BASE_MODEL}`, `<base-model>`), filled in by a script before
 * `ollama create`: it names no model, so it is neither a base model nor an unpinned pull.
 */
export function isBasePlaceholder(from: string): boolean {
  return /\{\{|\$\{|^\$[A-Za-z_]|^<[^<>\s]{1,80}>$/.test(from);
}

export function parseModelfile(p: ParsedManifest, mf: Modelfile): void {
  p.modelfile = mf;
  p.license_text = mf.license;
  // `LICENSE MIT` / `LICENSE """Apache 2.0"""`: a one-line value is an identifier, a longer one the licence text
  if (mf.license && mf.license.length <= 60 && !mf.license.includes('\n')) {
    p.licenses = [mf.license];
    p.license_text = null;
  }
  const from = mf.from ?? '';
  if (/\.(gguf|bin|safetensors|pt|pth)$/i.test(from)) p.files.push({ path: from });
  else if (!isBasePlaceholder(from)) p.base_models.push(from);
  for (const a of mf.adapters) p.files.push({ path: a });
  if (mf.template) p.chat_template = mf.template;
}
