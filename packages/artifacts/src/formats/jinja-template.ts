// Chat-template analysis (docs/artifacts.md "GGUF chat templates"). A template is parsed, never rendered:
// - sandbox escapes (the CVE-2024-34359 class) by a linear lexical scan of the code inside `{{ }}` / `{% %}`:
//   dunder and private attributes, dangerous attribute names, names built to dodge a filter (concatenated, escaped,
//   `|attr`, `chr`). The scan does not depend on a parser accepting the template, so a template that only the
//   victim's Jinja accepts is still read.
// - hidden instructions from @huggingface/jinja's AST: a branch taken when message content matches a literal that
//   then emits instruction-like text. When that parser refuses the template, a lexical fallback looks at each
//   `{% if %}` tag and the text right after it.
import { createRequire } from 'node:module';
import type * as Jinja from '@huggingface/jinja' with { 'resolution-mode': 'import' };
import patterns from '../../data/gguf-chat-template-patterns.json';
import type { ArtifactFinding } from '../types';
import { VERDICT_RANK } from '../types';
import { excerpt } from './byte-cursor';

// @huggingface/jinja is an ES module package that also ships a CommonJS build; this package compiles to CommonJS, so
// the CommonJS build is loaded by require and typed from the ES declarations.
const { parse, tokenize } = createRequire(__filename)('@huggingface/jinja') as typeof Jinja;
const DANGEROUS_ATTRIBUTES = new Set(patterns.dangerous_attributes);
const DANGEROUS_NAMES = new Set(patterns.dangerous_names);
const JINJA_GLOBALS = new Set(patterns.jinja_globals);
const LOADING_STATEMENTS = new Set(patterns.loading_statements);
const CONTENT_NAMES = new Set(patterns.content_names);
/** Compiled from the data file; `pnpm check:redos` analyses each. */
export const INSTRUCTION_PHRASES: readonly RegExp[] = patterns.instruction_phrases.map((p) => new RegExp(p, 'i'));
const DUNDER = /__[A-Za-z][A-Za-z0-9_]*__/;
/** The AST walk stops here: a real chat template has a few hundred nodes. */
const MAX_AST_NODES = 200_000;
/** Per template: enough to show what is there without flooding the report. */
const MAX_FINDINGS = 20;
/** Node visits across all the condition and branch walks of one template (nested ifs revisit their bodies). */
const MAX_SUBTREE_VISITS = 2_000_000;

export interface TemplateLocation {
  /** The metadata key (or file member) the template came from. */
  key: string;
  /** Byte offset of the template text in the file. */
  offset: number;
}

type Token =
  | { kind: 'string'; value: string; raw: string }
  | { kind: 'name'; value: string }
  | { kind: 'punct'; value: string }
  | { kind: 'other'; value: string };

interface Tag {
  /** `{{` or `{%` */
  open: string;
  tokens: Token[];
  start: number;
  end: number;
}

export function analyseChatTemplate(template: string, where: TemplateLocation): ArtifactFinding[] {
  const tags = lexTags(template);
  const findings = new Map<string, ArtifactFinding>();
  const add = (finding: Omit<ArtifactFinding, 'evidence'>, at: number, text: string): void => {
    // One finding per kind and message: a template that repeats a trick does not flood the report.
    const key = `${finding.id}:${finding.message}`;
    if (!findings.has(key) && findings.size < MAX_FINDINGS) {
      findings.set(key, {
        ...finding,
        evidence: { member: where.key, offset: where.offset + at, excerpt: excerpt(text) },
      });
    }
  };
  for (const tag of tags) scanTag(tag, template, add);
  // Every chat template formats the conversation; one with code that never reads it is a probe or a payload
  // (`{{ 7*7 }}` is the classic injection test).
  const readsConversation = tags.some((tag) =>
    tag.tokens.some((t) => t.kind === 'name' && (t.value === 'messages' || t.value === 'message')),
  );
  if (tags.length > 0 && !readsConversation) {
    add(
      {
        id: 'gguf.template_ignores_messages',
        severity: 'low',
        verdict: 'suspicious',
        message: `${where.key} has template code that never reads the conversation`,
      },
      tags[0]!.start,
      template.slice(tags[0]!.start, tags[0]!.start + 200),
    );
  }

  for (const phrase of INSTRUCTION_PHRASES) {
    const match = phrase.exec(template);
    if (match) {
      add(
        {
          id: 'gguf.template_hidden_instruction',
          severity: 'high',
          verdict: 'suspicious',
          message: `${where.key} injects prompt-injection wording into the conversation`,
        },
        match.index,
        template.slice(Math.max(0, match.index - 40), match.index + 160),
      );
    }
  }

  const triggers = triggeredInstructions(template, tags);
  for (const trigger of triggers) {
    add(
      {
        id: 'gguf.template_hidden_instruction',
        severity: 'high',
        verdict: 'suspicious',
        message: `${where.key} emits instruction text when message content matches ${JSON.stringify(
          trigger.literal.slice(0, 60),
        )}`,
      },
      trigger.at,
      `if content ~ ${JSON.stringify(trigger.literal)} → ${trigger.emitted}`,
    );
  }
  // Worst first: the report leads with what decides the verdict.
  return [...findings.values()].sort((a, b) => VERDICT_RANK[b.verdict] - VERDICT_RANK[a.verdict]);
}

type Add = (finding: Omit<ArtifactFinding, 'evidence'>, at: number, text: string) => void;

function scanTag(tag: Tag, template: string, add: Add): void {
  const text = template.slice(tag.start, tag.end);
  const escape = (why: string): void =>
    add(
      { id: 'gguf.template_sandbox_escape', severity: 'critical', verdict: 'malicious', message: `template ${why}` },
      tag.start,
      text,
    );
  const odd = (why: string): void =>
    add(
      { id: 'gguf.template_obfuscation', severity: 'medium', verdict: 'suspicious', message: `template ${why}` },
      tag.start,
      text,
    );
  const { tokens } = tag;
  const first = tokens[0];
  if (tag.open === '{%' && first?.kind === 'name' && LOADING_STATEMENTS.has(first.value)) {
    odd(`loads other templates ({% ${first.value} %}), which reads files where a loader is configured`);
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = tokens[i - 1];
    const next = tokens[i + 1];
    if (token.kind === 'name') {
      const isAttribute = previous?.kind === 'punct' && previous.value === '.';
      if (DUNDER.test(token.value)) escape(`reaches the Python object model through ${token.value}`);
      else if (isAttribute && token.value.startsWith('_')) escape(`reads the private attribute ${token.value}`);
      else if (isAttribute && DANGEROUS_ATTRIBUTES.has(token.value)) escape(`reaches ${token.value}`);
      else if (!isAttribute && JINJA_GLOBALS.has(token.value) && next?.kind === 'punct' && next.value === '.') {
        odd(`reads an attribute of the Jinja global ${token.value}`);
      } else if (!isAttribute && DANGEROUS_NAMES.has(token.value) && !isKeywordArgument(tokens, i)) {
        odd(`refers to ${token.value}, which chat templates never need`);
      }
      if (token.value === 'attr' && previous?.kind === 'punct' && previous.value === '|') {
        odd('looks attributes up by name with the |attr filter');
      }
    } else if (token.kind === 'string') {
      if (DUNDER.test(token.value)) escape(`names ${DUNDER.exec(token.value)![0]} in a string`);
      const subscript = previous?.value === '[' && next?.value === ']';
      const attrArgument = previous?.value === '(' && tokens[i - 2]?.value === 'attr';
      if ((subscript || attrArgument) && token.value.startsWith('_')) escape(`reads ${token.value} by name`);
      if ((subscript || attrArgument) && DANGEROUS_ATTRIBUTES.has(token.value)) escape(`reaches ${token.value}`);
      if (token.raw.includes('\\x') || token.raw.includes('\\u') || /\\[0-7]{3}/.test(token.raw)) {
        odd('spells a string with escape sequences');
      }
      if (token.value.includes('%c')) odd("builds a string from character codes ('%c')");
    }
  }
  // Names split into pieces: 'a' ~ 'b', 'a' + 'b', ['a', 'b']|join, 'ba'|reverse.
  for (const joined of joinedStrings(tokens)) {
    if (DUNDER.test(joined) || DUNDER.test([...joined].reverse().join(''))) {
      escape(`assembles ${DUNDER.exec(joined)?.[0] ?? 'a dunder name'} from pieces`);
    } else if (DANGEROUS_ATTRIBUTES.has(joined) && joined.length > 3) {
      odd(`assembles the name ${joined} from pieces`);
    }
  }
}

function isKeywordArgument(tokens: Token[], index: number): boolean {
  const next = tokens[index + 1];
  return next?.kind === 'other' && next.value === '=';
}

/** Runs of string literals separated only by `~`, `+` or `,` (and the reversal of single literals). */
function joinedStrings(tokens: Token[]): string[] {
  const joined: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 1) joined.push(current.join(''));
    current = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'string') {
      current.push(token.value);
      if (tokens[i + 1]?.value === '|' && tokens[i + 2]?.value === 'reverse') {
        joined.push([...token.value].reverse().join(''));
      }
    } else if (token.kind === 'punct' && ['~', '+', ','].includes(token.value)) {
      continue;
    } else {
      flush();
    }
  }
  flush();
  return joined;
}

/** Splits the template into tags and lexes the code inside each one, in one pass. */
function lexTags(template: string): Tag[] {
  const tags: Tag[] = [];
  let i = 0;
  const n = template.length;
  while (i < n) {
    const open = template.indexOf('{', i);
    if (open < 0 || open + 1 >= n) break;
    const kind = template[open + 1];
    if (kind === '#') {
      const close = template.indexOf('#}', open + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (kind !== '{' && kind !== '%') {
      i = open + 1;
      continue;
    }
    const closer = kind === '{' ? '}}' : '%}';
    const tokens: Token[] = [];
    let j = open + 2;
    while (j < n) {
      if (template.startsWith(closer, j) || (template[j] === '-' && template.startsWith(closer, j + 1))) break;
      const c = template[j]!;
      if (c === "'" || c === '"') {
        let k = j + 1;
        let value = '';
        while (k < n && template[k] !== c) {
          if (template[k] === '\\' && k + 1 < n) {
            const [decoded, width] = decodeEscape(template, k);
            value += decoded;
            k += width;
          } else {
            value += template[k];
            k++;
          }
        }
        tokens.push({ kind: 'string', value, raw: template.slice(j, Math.min(k + 1, n)) });
        j = k + 1;
      } else if (/[A-Za-z_]/.test(c)) {
        let k = j + 1;
        while (k < n && /[A-Za-z0-9_]/.test(template[k]!)) k++;
        tokens.push({ kind: 'name', value: template.slice(j, k) });
        j = k;
      } else if ('.[]()|~+,'.includes(c)) {
        tokens.push({ kind: 'punct', value: c });
        j++;
      } else if (/\s/.test(c)) {
        j++;
      } else {
        tokens.push({ kind: 'other', value: c });
        j++;
      }
    }
    const end = Math.min(n, j + closer.length + (template[j] === '-' ? 1 : 0));
    tags.push({ open: `{${kind}`, tokens, start: open, end });
    i = end;
  }
  return tags;
}

/** Python/Jinja string escapes: the decoded text and how many characters the escape took. */
function decodeEscape(text: string, at: number): [string, number] {
  const c = text[at + 1]!;
  const hex = (width: number): [string, number] | undefined => {
    const digits = text.slice(at + 2, at + 2 + width);
    return /^[0-9A-Fa-f]+$/.test(digits) && digits.length === width
      ? [String.fromCodePoint(parseInt(digits, 16)), 2 + width]
      : undefined;
  };
  if (c === 'x') return hex(2) ?? [c, 2];
  if (c === 'u') return hex(4) ?? [c, 2];
  if (c === 'U') return hex(8) ?? [c, 2];
  const octal = /^[0-7]{1,3}/.exec(text.slice(at + 1, at + 4));
  if (octal) return [String.fromCharCode(parseInt(octal[0], 8)), 1 + octal[0].length];
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
  return [simple[c] ?? c, 2];
}

interface Trigger {
  literal: string;
  emitted: string;
  at: number;
}

/** Branches that fire on a literal in the message content and emit instruction-like text. */
function triggeredInstructions(template: string, tags: Tag[]): Trigger[] {
  let program: unknown;
  try {
    program = parse(tokenize(template));
  } catch {
    // @huggingface/jinja is stricter than Python's Jinja in places (and a hostile template may be deep enough to
    // exhaust its recursion): read the tags instead.
    return lexicalTriggers(template, tags);
  }
  const triggers: Trigger[] = [];
  const budget: VisitBudget = { left: MAX_SUBTREE_VISITS };
  let visited = 0;
  const stack: unknown[] = [program];
  while (stack.length > 0 && visited < MAX_AST_NODES) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    visited++;
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
      continue;
    }
    const record = node as Record<string, unknown>;
    // `{% if %}` blocks and inline `x if cond else y` expressions.
    const [test, branch] = record.type === 'If' ? [record.test, record.body] : [record.condition, record.trueExpr];
    if (record.type === 'If' || record.type === 'Ternary') {
      const literal = contentTrigger(test, budget);
      if (literal !== undefined) {
        const emitted = stringsIn(branch, budget).join(' ');
        if (isInstructionLike(emitted)) triggers.push({ literal, emitted, at: template.indexOf(literal) });
      }
    }
    for (const [key, child] of Object.entries(record)) {
      if (key !== 'operator' && child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return triggers;
}

/** The literal a condition compares message content with, if it does. */
function contentTrigger(test: unknown, budget: VisitBudget): string | undefined {
  let found: string | undefined;
  walk(
    test,
    (node) => {
      if (found !== undefined) return;
      if (node.type === 'BinaryExpression') {
        const operator = (node.operator as { value?: string } | undefined)?.value ?? '';
        if (!['==', '!=', 'in', 'not in'].includes(operator)) return;
        const sides = [node.left, node.right];
        for (const [a, b] of [sides, [...sides].reverse()]) {
          const literal = literalOf(a);
          if (literal !== undefined && isWordLike(literal) && refersToContent(b)) found = literal;
        }
      } else if (node.type === 'CallExpression') {
        const callee = node.callee as Record<string, unknown> | undefined;
        const method = (callee?.property as { value?: unknown } | undefined)?.value;
        if (
          callee?.type !== 'MemberExpression' ||
          !['startswith', 'endswith', 'find', 'count'].includes(String(method))
        ) {
          return;
        }
        const literal = (node.args as unknown[] | undefined)?.map(literalOf).find((l) => l !== undefined);
        if (literal !== undefined && isWordLike(literal) && refersToContent(callee.object)) found = literal;
      }
    },
    budget,
  );
  return found;
}

function literalOf(node: unknown): string | undefined {
  const record = node as { type?: string; value?: unknown } | null;
  return record?.type === 'StringLiteral' && typeof record.value === 'string' ? record.value : undefined;
}

/**
 * Whether an expression is the message text itself: a content name, `x.content` / `x['content']`, possibly through
 * filters (`|lower`) or string methods (`.lower()`). `content['type']` (a part of structured content) is not.
 */
function refersToContent(node: unknown): boolean {
  let current = node as Record<string, unknown> | null | undefined;
  for (let hops = 0; current && hops < 32; hops++) {
    if (current.type === 'FilterExpression') {
      current = current.operand as Record<string, unknown>;
    } else if (current.type === 'CallExpression') {
      const callee = current.callee as Record<string, unknown> | undefined;
      if (callee?.type !== 'MemberExpression') return false;
      current = callee.object as Record<string, unknown>;
    } else if (current.type === 'Identifier') {
      return CONTENT_NAMES.has(String(current.value));
    } else if (current.type === 'MemberExpression') {
      const property = current.property as { type?: string; value?: unknown } | undefined;
      return (
        (property?.type === 'Identifier' || property?.type === 'StringLiteral') &&
        CONTENT_NAMES.has(String(property.value))
      );
    } else {
      return false;
    }
  }
  return false;
}

function stringsIn(body: unknown, budget: VisitBudget): string[] {
  const strings: string[] = [];
  walk(
    body,
    (node) => {
      if (node.type === 'StringLiteral' && typeof node.value === 'string') strings.push(node.value);
    },
    budget,
  );
  return strings;
}

interface VisitBudget {
  left: number;
}

function walk(root: unknown, visit: (node: Record<string, unknown>) => void, budget: VisitBudget): void {
  const stack: unknown[] = [root];
  while (stack.length > 0 && budget.left > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    budget.left--;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const record = node as Record<string, unknown>;
    visit(record);
    for (const [key, child] of Object.entries(record)) {
      if (key !== 'operator' && child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

/** Special tokens and markup removed, at least four words remain. */
function isInstructionLike(text: string): boolean {
  const prose = text.replace(/<[^<>]{0,80}>/g, ' ').replace(/\[\/?[A-Za-z_]{1,20}\]/g, ' ');
  return (prose.match(/[A-Za-z]{2,}/g) ?? []).length >= 4;
}

/** A trigger worth reporting names a word, not only a special token such as `</think>`. */
function isWordLike(literal: string): boolean {
  return /[A-Za-z]{2,}/.test(literal.replace(/<[^<>]{0,80}>/g, ' ').replace(/\[\/?[A-Za-z_]{1,20}\]/g, ' '));
}

/** Fallback: an `{% if %}`/`{% elif %}` tag comparing content with a literal, and the text up to the next tag. */
function lexicalTriggers(template: string, tags: Tag[]): Trigger[] {
  const triggers: Trigger[] = [];
  for (let t = 0; t < tags.length; t++) {
    const tag = tags[t]!;
    const head = tag.tokens[0];
    if (tag.open !== '{%' || head?.kind !== 'name' || (head.value !== 'if' && head.value !== 'elif')) continue;
    const mentionsContent = tag.tokens.some(
      (token) => (token.kind === 'name' || token.kind === 'string') && CONTENT_NAMES.has(token.value),
    );
    const literal = tag.tokens.find(
      (token): token is Extract<Token, { kind: 'string' }> =>
        token.kind === 'string' && token.value !== 'content' && isWordLike(token.value),
    );
    if (!mentionsContent || !literal) continue;
    const following = template.slice(tag.end, tags[t + 1]?.start ?? template.length);
    const printed = tags[t + 1]?.open === '{{' ? tags[t + 1]!.tokens.filter((tk) => tk.kind === 'string') : [];
    const emitted = [following, ...printed.map((tk) => tk.value)].join(' ');
    if (isInstructionLike(emitted)) triggers.push({ literal: literal.value, emitted, at: tag.start });
  }
  return triggers;
}
