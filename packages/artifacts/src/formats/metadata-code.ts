// Code-like text in free-form metadata (safetensors `__metadata__`, GGUF string values): loaders never run it, but
// a tool that evaluates metadata would, so it is reported as suspicious (docs/artifacts.md). The patterns and their
// sources are in data/safetensors-format.json, where they were first collected.
import format from '../../data/safetensors-format.json';

/** Compiled from the data file; `pnpm check:redos` analyses each. */
export const CODE_PATTERNS = format.code_patterns.map((p) => ({
  id: p.id,
  what: p.what,
  pattern: new RegExp(p.pattern),
}));

/** What kinds of code the text holds ("a Python import statement", ...); empty when none. */
export function codeLikeContent(text: string): string[] {
  return CODE_PATTERNS.filter((p) => p.pattern.test(text)).map((p) => p.what);
}
