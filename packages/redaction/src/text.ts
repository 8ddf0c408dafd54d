// Redaction of one text: the scanner's spans, PEM private-key blocks and known values replaced.
import { JWT_FORMAT, MAYBE_SECRET, REDACTED, matchFormat } from './catalogue';
import { Scanner, type Span } from './scanner';

/** `-----BEGIN … PRIVATE KEY-----` … `-----END … -----` blocks (to the end of the text when cut off). */
function privateKeySpans(s: string, spans: Span[]): void {
  let from = 0;
  for (;;) {
    const begin = s.indexOf('-----BEGIN ', from);
    if (begin < 0) return;
    const headerEnd = s.indexOf('-----', begin + 11);
    if (headerEnd < 0) {
      // a header cut off by truncation: redact what is left if it names a private key
      if (s.length - begin < 64 && s.includes('PRIVATE', begin))
        spans.push({ start: begin, end: s.length, replacement: `[REDACTED:private_key]`, kind: 'private_key' });
      return;
    }
    const header = headerEnd - begin <= 80 ? s.slice(begin + 11, headerEnd) : '';
    if (!header.includes('PRIVATE KEY')) {
      from = begin + 11;
      continue;
    }
    const endMarker = s.indexOf('-----END ', headerEnd + 5);
    let end = s.length;
    if (endMarker >= 0) {
      const close = s.indexOf('-----', endMarker + 9);
      end = close >= 0 ? close + 5 : s.length;
    }
    spans.push({ start: begin, end, replacement: `[REDACTED:private_key]`, kind: 'private_key' });
    from = end;
  }
}

function applySpans(s: string, spans: Span[]): string {
  if (spans.length === 0) return s;
  spans.sort((x, y) => x.start - y.start || y.end - x.end);
  let out = '';
  let at = 0;
  for (const sp of spans) {
    if (sp.end <= at) continue; // inside a span already replaced
    out += s.slice(at, Math.max(at, sp.start)) + (sp.start >= at ? sp.replacement : '');
    at = sp.end;
  }
  return out + s.slice(at);
}

/** Replace every exact occurrence of a known secret value (collected with key context). */
function scrubKnown(s: string, known: readonly string[]): string {
  let out = s;
  for (const v of known) if (out.includes(v)) out = out.split(v).join(REDACTED);
  return out;
}

/** Text with every credential found in it replaced. Linear in the length of the text. */
export function redactText(s: string, known: readonly string[] = []): string {
  const text = known.length ? scrubKnown(s, known) : s;
  if (text.length < 8 || !MAYBE_SECRET.test(text)) return text;
  const spans = new Scanner(text, false).run();
  privateKeySpans(text, spans);
  return applySpans(text, spans);
}

/** A URL with its user-info password (or token user-info) and secret query values replaced. */
export function redactUrl(u: string): string {
  return redactText(u);
}

export interface SecretHit {
  kind: string;
  start: number;
  end: number;
}

/**
 * Well-known tokens and private keys in a text (for the leaked-secrets rule): kind and offsets only.
 * Name-based assignments are not hits here: a `PASSWORD=…` is redacted, but R20 reports it from the
 * parsed config with its key, where the context is known.
 */
export function findSecrets(s: string): SecretHit[] {
  const spans = new Scanner(s, true).run();
  privateKeySpans(s, spans);
  return spans
    .filter((sp): sp is Span & { kind: string } => sp.kind !== undefined)
    .sort((x, y) => x.start - y.start)
    .map((sp) => ({ kind: sp.kind, start: sp.start, end: sp.end }));
}

/** The kind of a single token (`sk-proj-…` → openai_api_key), or null. */
export function secretKind(token: string): string | null {
  const t = token.trim();
  if (JWT_FORMAT.pattern.test(t)) return JWT_FORMAT.kind;
  return matchFormat(t, { start: 0, end: t.length, truncated: false })?.kind ?? null;
}
