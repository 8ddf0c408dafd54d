// Jupyter notebooks (nbformat): the code cells' text, capped, for the command and install rules.
import type { ParsedManifest } from '../types';
import { isObj, type Obj } from '../util';
import { capItems, MAX_COMMAND_TEXT } from './common';

export function isNotebook(j: Obj): boolean {
  return Array.isArray(j.cells) && isObj(j.metadata) && typeof j.nbformat === 'number';
}

/**
 * A cell's source without its whole-line comments (`# !pip install x`, `#@title`, `# demo.launch(share=True)`):
 * commented-out code does not run, so the install, launch and download rules do not read it. Secrets are looked for
 * in the raw file, comments included (a token in a comment is still published).
 */
function uncommented(src: string): string {
  return src
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n');
}

export function parseNotebook(p: ParsedManifest, j: Obj): void {
  let code = '';
  for (const c of (j.cells as unknown[]).slice(0, 2000)) {
    if (!isObj(c) || c.cell_type !== 'code') continue;
    const src = typeof c.source === 'string' ? c.source : capItems(c.source).join('');
    code += `${uncommented(src)}\n`;
    if (code.length >= MAX_COMMAND_TEXT) break;
  }
  p.notebook_code = code.slice(0, MAX_COMMAND_TEXT);
}
