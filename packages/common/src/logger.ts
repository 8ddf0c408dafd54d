import { AsyncLocalStorage } from 'node:async_hooks';
import { isSecretKeyName, REDACTED, redactText } from '@risk/redaction';
import winston from 'winston';

/** Per-request context, so every log line written while serving a request carries its request_id. */
export const requestContext = new AsyncLocalStorage<{ request_id: string }>();


// Log redaction uses the engine's one redaction module (docs/security.md "Secrets never reach shared
// data"): keys whose values never reach a log line (authorization, *_token, *_secret, *_password, x-api-key,
// cookie, …), and credentials wherever they appear in a string (our API keys, webhook secrets, deployment
// and admin tokens, JWTs, bearer values, URL passwords, the vendor token formats, PEM private keys).
// A lone `key` is a credential in a log line (the module leaves it to structure elsewhere).
function isSecretLogKey(key: string): boolean {
  return key === 'key' || isSecretKeyName(key);
}

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  // the stack repeats the message, so it is redacted too
  if (value instanceof Error) return { name: value.name, message: redact(value.message), stack: redact(value.stack) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  // fromEntries defines each key, so a `__proto__` key is logged as a key (`out[k] = …` would set a prototype)
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, isSecretLogKey(k) ? REDACTED : redact(v, depth + 1)]),
  );
}

const redactFormat = winston.format((info) => {
  const ctx = requestContext.getStore();
  if (ctx && info.request_id === undefined) info.request_id = ctx.request_id;
  for (const key of Object.keys(info)) {
    if (isSecretLogKey(key)) info[key] = REDACTED;
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
