// JSON with comments and trailing commas (VS Code `mcp.json` and settings files are documented as JSONC), read with
// Microsoft's jsonc-parser under the engine's bounds (docs/security.md "Linear-time parsing and caps").
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { LIMITS } from '../limits';

/**
 * Whether `[`/`{` nest deeper than `max` outside strings and comments: one pass. jsonc-parser descends recursively
 * per level, so a run of `[` would otherwise overflow the stack.
 */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      while (i < n && text.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 1;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return false;
}

/**
 * The tree as plain values. Objects are built with every own key (`__proto__` included, as JSON.parse does) and the
 * last of repeated keys wins, like JSON.parse; the depth is bounded by jsonNestingExceeds before.
 */
function valueOf(node: Node): unknown {
  if (node.type === 'array') return (node.children ?? []).map(valueOf);
  if (node.type === 'object')
    return Object.fromEntries(
      (node.children ?? []).map((prop) => {
        const [key, value] = prop.children ?? [];
        return [String(key?.value ?? ''), value ? valueOf(value) : null];
      }),
    );
  return node.value ?? null;
}

/** A JSONC document's value; throws (with the first error and its offset) when it is not JSONC. */
export function parseJsonc(text: string): unknown {
  if (jsonNestingExceeds(text, LIMITS.jsonc_nesting))
    throw new Error(`JSONC nested deeper than ${LIMITS.jsonc_nesting} levels`);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) throw new Error(`${printParseErrorCode(first.error)} at offset ${first.offset}`);
  if (!tree) throw new Error('no JSONC value');
  return valueOf(tree);
}

/**
 * A JSON(C) document read past a few syntax errors (jsonc-parser recovers at the next token), with the lines of those
 * errors; null when it has more errors, no object or array at its root, or nests too deep. For manifest-sized texts
 * only: the caller reports the syntax error, and the lines let a reviewer see what was left out.
 */
export function recoverJsonc(text: string, maxErrors: number): { value: unknown; lines: number[] } | null {
  if (jsonNestingExceeds(text, LIMITS.jsonc_nesting)) return null;
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (!tree || (tree.type !== 'object' && tree.type !== 'array') || errors.length > maxErrors) return null;
  const lineAt = (offset: number): number => {
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    return line;
  };
  const left = new Set(errors.map((e) => lineAt(e.offset)));
  // jsonc-parser stops at the end of the root value: whatever follows it is left out too (`[]` atop a list of
  // requirement pins is not a JSON document), and a recovery must keep most of the text
  const end = tree.offset + tree.length;
  const endLine = lineAt(end);
  const restOfEndLine = text.slice(end, end + 4096).split('\n', 1)[0]!;
  let nonBlank = 0;
  const content = (l: string): boolean => {
    const t = l.trim();
    return t !== '' && !t.startsWith('//') && !t.startsWith('/*') && !t.startsWith('*');
  };
  text.split('\n').forEach((l, i) => {
    if (l.trim() === '') return;
    nonBlank++;
    if ((i + 1 > endLine && content(l)) || (i + 1 === endLine && content(restOfEndLine))) left.add(i + 1);
  });
  if (left.size * 4 > nonBlank) return null;
  return { value: valueOf(tree), lines: [...left] };
}
