// Redaction of JSON-like structures: values under secret-looking keys, and every string through redactText.
import { REDACTED } from './catalogue';
import { AUTH_SCHEMES, isPlaceholderValue, isSecretKeyName } from './names';
import { redactText } from './text';

const MAX_DEPTH = 64;
const MAX_KNOWN = 64;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function flagName(v: unknown): string | null {
  if (typeof v !== 'string' || !v.startsWith('-') || v.includes('=') || v.length > 64) return null;
  return v.replace(/^-{1,2}/, '');
}

/** Whether an object is a `{name, value}` pair whose value is secret (server.json env vars and headers). */
function secretPair(o: Record<string, unknown>): boolean {
  return typeof o.name === 'string' && (isSecretKeyName(o.name) || o.isSecret === true || o.is_secret === true);
}

interface WalkState {
  known: readonly string[];
  // the AI-BOM repeats names, purls and licences across its renderings: each distinct string is scanned once
  cache: Map<string, string>;
}

function walkString(v: string, st: WalkState): string {
  let out = st.cache.get(v);
  if (out === undefined) {
    out = redactText(v, st.known);
    st.cache.set(v, out);
  }
  return out;
}

/** `at.secret`: the value sits under a secret-looking key or flag, so a string there is redacted whole. */
function walk(v: unknown, at: { depth: number; secret: boolean }, st: WalkState): unknown {
  const { depth, secret } = at;
  if (typeof v === 'string') return secret && !isPlaceholderValue(v) ? REDACTED : walkString(v, st);
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const flag = i > 0 ? flagName(v[i - 1]) : null;
      const afterSecretFlag =
        flag !== null && isSecretKeyName(flag) && typeof v[i] === 'string' && !(v[i] as string).startsWith('-');
      out[i] = walk(v[i], { depth: depth + 1, secret: secret || afterSecretFlag }, st);
    }
    return out;
  }
  if (!isPlainObject(v)) return v;
  const pair = secretPair(v);
  // fromEntries defines every key: `out[k] = …` would turn a `__proto__` key into the copy's prototype
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => {
      const isSecret = secret || isSecretKeyName(k) || (pair && (k === 'value' || k === 'default'));
      return [k.length >= 8 ? walkString(k, st) : k, walk(x, { depth: depth + 1, secret: Boolean(isSecret) }, st)];
    }),
  );
}

/**
 * A copy of a JSON-like value with secrets redacted: string values under secret-looking keys (and
 * `{name, value}` pairs, `--flag value` arguments), every string's text through redactText, and exact
 * occurrences of `known` values. Non-plain objects are returned as they are.
 */
export function redactDeep<T>(value: T, known: readonly string[] = []): T {
  return walk(value, { depth: 0, secret: false }, { known, cache: new Map() }) as T;
}

/**
 * Values that are secret because of where they stand (an env value under `API_KEY`, a header under
 * `Authorization`, a `--token` argument, a `{name, value, isSecret}` pair), so that the same value is
 * also scrubbed wherever else it appears. Longest first; bounded in number.
 */
export function collectSecretValues(root: unknown): string[] {
  const found = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v !== 'string' || found.size >= MAX_KNOWN) return;
    let t = v.trim();
    const sp = t.indexOf(' ');
    if (sp > 0 && AUTH_SCHEMES.has(t.slice(0, sp).toLowerCase())) t = t.slice(sp + 1).trim();
    if (t.length >= 6 && !isPlaceholderValue(t)) found.add(t);
  };
  const visit = (v: unknown, depth: number, secret: boolean): void => {
    if (depth > MAX_DEPTH || found.size >= MAX_KNOWN) return;
    if (typeof v === 'string') {
      if (secret) add(v);
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        const flag = i > 0 ? flagName(v[i - 1]) : null;
        visit(x, depth + 1, secret || (flag !== null && isSecretKeyName(flag)));
      });
      return;
    }
    if (!isPlainObject(v)) return;
    const pair = secretPair(v);
    for (const [k, x] of Object.entries(v))
      visit(x, depth + 1, secret || isSecretKeyName(k) || (pair && (k === 'value' || k === 'default')));
  };
  visit(root, 0, false);
  return [...found].sort((a, b) => b.length - a.length);
}
