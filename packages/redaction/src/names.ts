// Secret-looking names and placeholder values: what makes a key, header, variable or flag name a credential.
import { isAlnum, isDigit, isLower, isUpper } from './chars';

// names whose LAST word makes them secret: API_KEY, GITHUB_TOKEN, db_password, x-amz-signature, sig, set-cookie
const SECRET_LAST_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'credential',
  'credentials',
  'creds',
  'cookie',
  'auth',
  'authorization',
  'jwt',
  'pat',
  'sig',
  'signature',
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'bearer',
  'ciphertext',
  'key',
]);
// words that make a name secret wherever they stand: client_secret_value, secret_ciphertext, passwordHash
const SECRET_ANY_WORDS = new Set(['secret', 'password', 'passwd', 'passphrase', 'apikey', 'authorization']);
// `<word>_key` / `<word>_token` names that are not credentials (database keys, tokenizer special tokens)
const NOT_SECRET_QUALIFIERS = new Set([
  'public',
  'primary',
  'foreign',
  'sort',
  'partition',
  'idempotency',
  'cache',
  'lookup',
  'hash',
  'map',
  'unique',
  'dedupe',
  'group',
  'routing',
  'index',
  'object',
  'row',
  'column',
  'join',
  'bos',
  'eos',
  'pad',
  'unk',
  'sep',
  'cls',
  'mask',
  'max',
  'min',
  'num',
  'special',
  'start',
  'end',
  'image',
  'audio',
  'video',
]);

/** The lower-case words of a name: `OPENAI_API_KEY`, `x-api-key`, `apiKey` → [openai, api, key]. */
function nameWords(name: string): string[] {
  const words: string[] = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!isAlnum(c)) {
      if (cur) words.push(cur);
      cur = '';
      continue;
    }
    // camelCase boundary: a capital after a lower-case letter or digit
    if (isUpper(c) && cur && i > 0 && (isLower(name.charCodeAt(i - 1)) || isDigit(name.charCodeAt(i - 1)))) {
      words.push(cur);
      cur = '';
    }
    cur += String.fromCharCode(isUpper(c) ? c + 32 : c);
  }
  if (cur) words.push(cur);
  return words;
}

// documents repeat the same few key names: their verdicts are remembered (bounded)
const keyVerdicts = new Map<string, boolean>();

/** Whether a key, header, env variable, query parameter or flag name says its value is a credential. */
export function isSecretKeyName(name: string): boolean {
  let verdict = keyVerdicts.get(name);
  if (verdict === undefined) {
    verdict = judgeKeyName(name);
    if (keyVerdicts.size >= 4096) keyVerdicts.clear();
    keyVerdicts.set(name, verdict);
  }
  return verdict;
}

function judgeKeyName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false;
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  // also at the end of a run-together word: PGPASSWORD, clientsecret, openaiapikey
  for (const w of words) for (const sw of SECRET_ANY_WORDS) if (w.endsWith(sw)) return true;
  if (!SECRET_LAST_WORDS.has(last)) return false;
  const before = words[words.length - 2];
  // a lone `key` is structure far more often than a credential (SPDX DictionaryEntry {key, value}, sort
  // keys); a credential under it is still found by its format or, in a URL query, by looking generated
  if (last === 'key' && before === undefined) return false;
  if ((last === 'key' || last === 'token') && before !== undefined && NOT_SECRET_QUALIFIERS.has(before)) return false;
  return true;
}

/**
 * A value that names a secret rather than holding one: `${VAR}`, `$VAR`, `<your-key>`, `{{ secrets.X }}`,
 * `%VAR%`, an UPPER_SNAKE env variable name, an obvious placeholder, or an already redacted value.
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  const first = v.charCodeAt(0);
  const lastCh = v.charCodeAt(v.length - 1);
  // `${VAR}`, `$VAR` (upper case: a password may well start with `$`)
  if (first === 36 /* $ */ && (v.charCodeAt(1) === 123 /* { */ || isEnvName(v, 1))) return true;
  if (first === 60 /* < */ && lastCh === 62 /* > */) return true;
  if (v.startsWith('{{') || (first === 37 /* % */ && lastCh === 37 && v.length > 2)) return true;
  if (v.length > 200) return false;
  const lower = v.toLowerCase();
  if (['null', 'none', 'true', 'false', 'undefined', 'nil', '""', "''"].includes(lower)) return true;
  if (v.includes('REDACTED')) return true;
  if (/^(?:x+|\*+|\.+|-+|#+|0+)$/i.test(v)) return true;
  for (const w of ['your', 'changeme', 'change-me', 'placeholder', 'example', 'replace', 'xxxx', '****', '...'])
    if (lower.includes(w)) return true;
  // an env variable's name with an underscore (GITHUB_TOKEN): a reference to where the secret lives
  return v.includes('_') && isEnvName(v, 0);
}

/** `v` from `from` on is an UPPER_SNAKE name. */
export function isEnvName(v: string, from: number): boolean {
  if (from >= v.length || !isUpper(v.charCodeAt(from))) return false;
  for (let i = from; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c !== 95 && !isUpper(c) && !isDigit(c)) return false;
  }
  return true;
}

/** A value that looks generated (long, mixed letters and digits): counts as secret in a URL query. */
export function looksRandom(v: string): boolean {
  if (v.length < 20 || v.length > 4096) return false;
  let upper = 0;
  let lower = 0;
  let digit = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (isUpper(c)) upper++;
    else if (isLower(c)) lower++;
    else if (isDigit(c)) digit++;
  }
  return digit > 0 && ((upper > 0 && lower > 0) || digit + lower >= v.length - 2);
}

export const AUTH_SCHEMES = new Set(['bearer', 'basic', 'token', 'bot', 'digest', 'apikey']);
