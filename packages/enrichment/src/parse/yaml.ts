// YAML under the engine's bounds (docs/security.md "Linear-time parsing and caps").
import YAML from 'yaml';
import { LIMITS } from '../limits';

/**
 * YAML nesting depth, over-estimated in one pass: open `[`/`{` (quotes not considered) or block levels (indentation
 * stack) plus compact `- `/`? ` items on one line. The `yaml` parser recurses per level: a few thousand levels
 * overflow its stack, and some deep shapes (`- - - …`, a run of `[`) took seconds or killed the process with a
 * RegExp-compiler out-of-memory (measured with yaml 2.x, docs/security.md).
 */
export function yamlNestingExceeds(text: string, max: number): boolean {
  let flow = 0;
  const indents: number[] = [];
  let i = 0;
  while (i < text.length) {
    // one line: indentation, compact indicators, then its brackets
    let col = 0;
    while (text[i] === ' ' || text[i] === '\t') {
      i++;
      col++;
    }
    let compact = 0;
    while ((text[i] === '-' || text[i] === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
      compact++;
      i += 2;
    }
    const blank = i >= text.length || text[i] === '\n' || text[i] === '\r';
    if (!blank || compact) {
      while (indents.length && (indents[indents.length - 1] ?? 0) >= col) indents.pop();
      indents.push(col);
    }
    if (indents.length + compact > max) return true;
    for (; i < text.length && text[i] !== '\n'; i++) {
      const ch = text[i];
      if (ch === '[' || ch === '{') {
        if (++flow > max) return true;
      } else if ((ch === ']' || ch === '}') && flow > 0) flow--;
    }
    i++;
  }
  return false;
}

/** YAML.parse under the engine's bounds: 50 aliases (billion laughs), LIMITS.yaml_nesting levels, LIMITS.yaml_chars. */
export function parseYaml(text: string): unknown {
  if (text.length > LIMITS.yaml_chars) throw new Error(`YAML longer than ${LIMITS.yaml_chars} characters`);
  if (yamlNestingExceeds(text, LIMITS.yaml_nesting))
    throw new Error(`YAML nested deeper than ${LIMITS.yaml_nesting} levels`);
  return YAML.parse(text, { maxAliasCount: 50 });
}
