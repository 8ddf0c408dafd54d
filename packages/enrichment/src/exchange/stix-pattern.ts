// The STIX 2.1 patterning language (STIX 2.1 part 9), parsed by hand: one pass over the characters, no regular
// expression and no backtracking, so a hostile pattern costs time linear in its length (docs/formats.md "STIX").
// Nesting and size are capped. The whole grammar is recognised (observation operators, qualifiers, every comparison
// operator and literal); what the import uses is the list of comparisons (stix-import.ts decides which identify an
// asset).

export const PATTERN_MAX_LENGTH = 16 * 1024;
export const PATTERN_MAX_DEPTH = 32;
export const PATTERN_MAX_COMPARISONS = 1000;

export interface StixComparison {
  /** the object type before `:` (file, url, domain-name, x-risk-asset, …) */
  object_type: string;
  /** the property path after `:`, one step per element (`hashes`, `SHA-256`; list indexes as `[0]` / `[*]`) */
  path: string[];
  operator: string;
  negated: boolean;
  /** the string values compared with (IN gives several); non-string literals are kept as written */
  values: string[];
}

export class StixPatternError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at character ${position}`);
  }
}

const COMPARISON_WORDS = new Set(['IN', 'LIKE', 'MATCHES', 'ISSUBSET', 'ISSUPERSET']);
const isLower = (c: string) => c >= 'a' && c <= 'z';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isWord = (c: string) => isLower(c) || (c >= 'A' && c <= 'Z') || isDigit(c) || c === '_';

class Parser {
  private pos = 0;
  readonly comparisons: StixComparison[] = [];
  constructor(private readonly src: string) {}

  parse(): StixComparison[] {
    this.observations(0);
    this.ws();
    if (this.pos < this.src.length) this.fail('unexpected text after the pattern');
    return this.comparisons;
  }

  private fail(message: string): never {
    throw new StixPatternError(message, this.pos);
  }
  private ws(): void {
    while (this.pos < this.src.length && ' \t\r\n'.includes(this.src[this.pos] as string)) this.pos++;
  }
  private peek(): string {
    this.ws();
    return this.src[this.pos] ?? '';
  }
  private expect(c: string): void {
    if (this.peek() !== c) this.fail(`expected '${c}'`);
    this.pos++;
  }
  /** The upper-case keyword at the cursor, without consuming it ('' when there is none). */
  private word(): string {
    this.ws();
    let end = this.pos;
    while (end < this.src.length && isWord(this.src[end] as string) && end - this.pos < 16) end++;
    return this.src.slice(this.pos, end);
  }
  private keyword(k: string): boolean {
    if (this.word() !== k) return false;
    this.pos += k.length;
    return true;
  }

  /** observationExpressions: OR / AND / FOLLOWEDBY over observation units (precedence does not matter here). */
  private observations(depth: number): void {
    if (depth > PATTERN_MAX_DEPTH) this.fail('pattern nested too deeply');
    this.observationUnit(depth);
    while (this.keyword('AND') || this.keyword('OR') || this.keyword('FOLLOWEDBY')) this.observationUnit(depth);
  }
  private observationUnit(depth: number): void {
    const c = this.peek();
    if (c === '[') {
      this.pos++;
      this.comparisonOr(depth + 1);
      this.expect(']');
    } else if (c === '(') {
      this.pos++;
      this.observations(depth + 1);
      this.expect(')');
    } else this.fail("expected '[' or '('");
    this.qualifiers();
  }
  private qualifiers(): void {
    for (;;) {
      if (this.keyword('WITHIN')) {
        this.number();
        if (!this.keyword('SECONDS')) this.fail('expected SECONDS');
      } else if (this.keyword('REPEATS')) {
        this.number();
        if (!this.keyword('TIMES')) this.fail('expected TIMES');
      } else if (this.keyword('START')) {
        this.prefixed('t');
        if (!this.keyword('STOP')) this.fail('expected STOP');
        this.prefixed('t');
      } else return;
    }
  }

  private comparisonOr(depth: number): void {
    if (depth > PATTERN_MAX_DEPTH) this.fail('pattern nested too deeply');
    this.comparisonUnit(depth);
    while (this.keyword('AND') || this.keyword('OR')) this.comparisonUnit(depth);
  }
  private comparisonUnit(depth: number): void {
    if (this.peek() === '(') {
      this.pos++;
      this.comparisonOr(depth + 1);
      this.expect(')');
      return;
    }
    if (this.keyword('EXISTS')) {
      this.objectPath();
      return;
    }
    const { object_type, path } = this.objectPath();
    const negated = this.keyword('NOT');
    const operator = this.operator();
    const values = operator === 'IN' ? this.set() : [this.literal()];
    if (this.comparisons.length >= PATTERN_MAX_COMPARISONS) this.fail('too many comparisons');
    this.comparisons.push({ object_type, path, operator, negated, values });
  }
  private operator(): string {
    const w = this.word();
    if (COMPARISON_WORDS.has(w)) {
      this.pos += w.length;
      return w;
    }
    const two = this.src.slice(this.pos, this.pos + 2);
    if (two === '!=' || two === '<=' || two === '>=' || two === '<>') {
      this.pos += 2;
      return two === '<>' ? '!=' : two;
    }
    const one = this.src[this.pos] ?? '';
    if (one === '=' || one === '<' || one === '>') {
      this.pos++;
      return one;
    }
    return this.fail('expected a comparison operator');
  }

  private objectPath(): { object_type: string; path: string[] } {
    this.ws();
    const start = this.pos;
    if (!isLower(this.src[this.pos] ?? '')) this.fail('expected an object type');
    while (
      this.pos < this.src.length &&
      (isLower(this.src[this.pos]!) || isDigit(this.src[this.pos]!) || this.src[this.pos] === '-')
    )
      this.pos++;
    const object_type = this.src.slice(start, this.pos);
    if (this.src[this.pos] !== ':') this.fail("expected ':' after the object type");
    this.pos++;
    const path = [this.pathStep()];
    for (;;) {
      const c = this.src[this.pos];
      if (c === '.') {
        this.pos++;
        path.push(this.pathStep());
      } else if (c === '[') {
        this.pos++;
        const from = this.pos;
        if (this.src[this.pos] === '*') this.pos++;
        else {
          if (this.src[this.pos] === '-') this.pos++;
          while (isDigit(this.src[this.pos] ?? '')) this.pos++;
        }
        if (from === this.pos || this.src[this.pos] !== ']') this.fail('expected a list index or *');
        path.push(`[${this.src.slice(from, this.pos)}]`);
        this.pos++;
      } else return { object_type, path };
    }
  }
  private pathStep(): string {
    if (this.src[this.pos] === "'") return this.quoted();
    const start = this.pos;
    while (this.pos < this.src.length && (isWord(this.src[this.pos]!) || this.src[this.pos] === '-')) this.pos++;
    if (start === this.pos) this.fail('expected a property name');
    return this.src.slice(start, this.pos);
  }

  private set(): string[] {
    this.expect('(');
    const values = [this.literal()];
    while (this.peek() === ',') {
      this.pos++;
      values.push(this.literal());
    }
    this.expect(')');
    return values;
  }
  private literal(): string {
    const c = this.peek();
    if (c === "'") return this.quoted();
    if (c === 't' || c === 'b' || c === 'h') {
      if (this.src[this.pos + 1] === "'") return this.prefixed(c);
      const w = this.word();
      if (w === 'true' || w === 'false') {
        this.pos += w.length;
        return w;
      }
      return this.fail('expected a literal');
    }
    if (this.word() === 'false') {
      this.pos += 5;
      return 'false';
    }
    return this.number();
  }
  private prefixed(prefix: string): string {
    this.ws();
    if (this.src[this.pos] !== prefix || this.src[this.pos + 1] !== "'") this.fail(`expected ${prefix}'…'`);
    this.pos++;
    return this.quoted();
  }
  private number(): string {
    this.ws();
    const start = this.pos;
    if (this.src[this.pos] === '-' || this.src[this.pos] === '+') this.pos++;
    while (isDigit(this.src[this.pos] ?? '')) this.pos++;
    if (this.src[this.pos] === '.') {
      this.pos++;
      while (isDigit(this.src[this.pos] ?? '')) this.pos++;
    }
    const text = this.src.slice(start, this.pos);
    if (!isDigit(text[text.length - 1] ?? '')) this.fail('expected a number');
    return text;
  }
  /** A quoted string; only \' and \\ are escapes (STIX 2.1 part 9.2). */
  private quoted(): string {
    this.pos++; // the opening quote
    let out = '';
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('unterminated string');
      if (c === "'") {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next !== "'" && next !== '\\') this.fail('invalid escape in a string');
        out += next;
        this.pos += 2;
      } else {
        out += c;
        this.pos++;
      }
    }
  }
}

/** Parses a STIX 2.1 pattern; throws StixPatternError (with the position) when it is not one. */
export function parseStixPattern(pattern: string): StixComparison[] {
  if (pattern.length > PATTERN_MAX_LENGTH) throw new StixPatternError('pattern too long', PATTERN_MAX_LENGTH);
  return new Parser(pattern).parse();
}

/** A string literal for a pattern: quotes and backslashes escaped. */
export function stixString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
