import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

/** Per-request context, so every log line written while serving a request carries its request_id. */
export const requestContext = new AsyncLocalStorage<{ request_id: string }>();

// Keys whose values never reach a log line, wherever they appear in the logged object.
// Also any key ending in _token/_secret/_password (tenant_token, client_secret, db_password, …).
const SECRET_KEYS =
  /^(authorization|api[_-]?token|api[_-]?key|key|token|secret|password|passwd|secret_ciphertext|api_token_ciphertext|cookie|set-cookie|x-api-key|webhook[_-]?secret|admin_api_token|secrets_key)$|[_-](token|secret|password|passwd)$/i;
// Values that look like credentials, wherever they appear (even inside messages): our API keys,
// webhook secrets, deployment tokens, generated admin tokens, JWTs (tenant tokens), bearer headers.
// Linear in V8 (docs/security.md "Linear-time parsing and caps"): every alternative matches once its prefix has 8 key
// characters, so no start inside a long run fails after scanning it; the JWT's `.payload.signature` is therefore
// optional (an `eyJ…` run without dots is redacted too — it was rescanned from each `eyJ` in it).
const SECRET_VALUES =
  /\b(rk_(?:live|test)_[A-Za-z0-9_-]{8,}|whsec_[A-Za-z0-9+/=_-]{8,}|dpl_[A-Za-z0-9_-]{8,}|adm_[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)?|Bearer\s+[A-Za-z0-9._~+/=-]{8,})/g;

const SCHEME_CHAR = /^[A-Za-z0-9+.-]$/;
const WORD_CHAR = /^\w$/;
/**
 * The password of a connection URL (postgresql://user:pw@host, redis://:pw@host) replaced; the rest stays readable.
 * What `/\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]+@/gi` replaced with `$1[REDACTED]@`, in one pass: the regex
 * rescanned a long run of scheme characters from each of its word starts (quadratic).
 */
function redactUrlPasswords(s: string): string {
  const parts: string[] = [];
  let keep = 0;
  for (let c = s.indexOf('://'); c >= 0; c = s.indexOf('://', c + 1)) {
    // the scheme: the leftmost letter at a word boundary in the run of scheme characters before `://`
    let runStart = c;
    while (runStart > keep && SCHEME_CHAR.test(s[runStart - 1] ?? '')) runStart--;
    let start = -1;
    for (let p = runStart; p < c; p++)
      if (/^[A-Za-z]$/.test(s[p] ?? '') && (p === 0 || !WORD_CHAR.test(s[p - 1] ?? ''))) {
        start = p;
        break;
      }
    if (start < 0) continue;
    // `user:` then `password@`
    let i = c + 3;
    while (i < s.length && !/[:/@\s]/.test(s[i] ?? '')) i++;
    if (s[i] !== ':') continue;
    const userEnd = i + 1;
    let j = userEnd;
    while (j < s.length && !/[@\s/]/.test(s[j] ?? '')) j++;
    if (s[j] !== '@' || j === userEnd) continue;
    parts.push(s.slice(keep, userEnd), REDACTED);
    keep = j;
    c = j;
  }
  parts.push(s.slice(keep));
  return parts.join('');
}

export const REDACTED = '[REDACTED]';

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactUrlPasswords(value.replace(SECRET_VALUES, REDACTED));
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  // the stack repeats the message, so it is redacted too
  if (value instanceof Error) return { name: value.name, message: redact(value.message), stack: redact(value.stack) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? REDACTED : redact(v, depth + 1);
  return out;
}

const redactFormat = winston.format((info) => {
  const ctx = requestContext.getStore();
  if (ctx && info.request_id === undefined) info.request_id = ctx.request_id;
  for (const key of Object.keys(info)) {
    if (SECRET_KEYS.test(key)) info[key] = REDACTED;
    else info[key] = redact(info[key]);
  }
  return info;
});

export type Logger = winston.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** extra transport (tests capture log lines through this) */
  stream?: NodeJS.WritableStream;
  /** write to stderr instead of stdout (the CLI keeps stdout for its JSON output) */
  stderr?: boolean;
}

export function createLogger(opts: LoggerOptions): Logger {
  const silent = opts.level === 'silent';
  const transports: winston.transport[] = [
    new winston.transports.Console({
      stderrLevels: opts.stderr ? ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] : ['error'],
    }),
  ];
  if (opts.stream) transports.push(new winston.transports.Stream({ stream: opts.stream }));
  return winston.createLogger({
    level: silent ? 'error' : (opts.level ?? 'info'),
    silent: silent && !opts.stream,
    defaultMeta: { service: opts.service },
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      redactFormat(),
      winston.format.json(),
    ),
    transports,
  });
}
