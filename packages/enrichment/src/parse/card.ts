// Hugging Face model and dataset cards: YAML front matter, model-index, and what the prose states (licence, lineage).
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import type { ParsedManifest } from '../types';
import { str, strList, type Obj } from '../util';
import { licenseFromValue } from './common';

// `license` + blanks + an id. Was `licen[sc]e\s*[:\]]?\s*\n*\s*\[?|#\s*licen[sc]e\s*\n+\s*\[?`: three adjacent blank runs
// (4th-degree backtracking: `license` + a few hundred newlines held a worker for minutes). `\s*(?:[:\]]\s*)?` is the same
// language with one way to match it, and the `# License` heading alternative is covered by the `license` one at the
// next position (same captured id).
export const PROSE_LICENSE =
  /\b(?:licen[sc]ed?\s+(?:under\s+)?(?:the\s+)?|licen[sc]e\s*(?:[:\]]\s*)?\[?)(MIT|Apache(?:[- ]License)?[ ,-]*(?:Version\s*)?2\.0|Apache-2\.0|GPL-?[23]\.0|AGPL-?3\.0|LGPL-?[23]\.[01]|BSD-[23]-Clause|CC[- ]BY(?:[- ](?:NC|SA|ND))*[- ][1-4]\.0|OpenRAIL(?:-M)?|Llama ?[234](?:\.\d)?(?: Community)? License)/i;

export function proseLicense(text: string): string | null {
  const m = PROSE_LICENSE.exec(text);
  if (!m || !m[1]) return null;
  const l = m[1].replace(/\s+/g, ' ');
  if (/^mit$/i.test(l)) return 'MIT';
  if (/apache/i.test(l)) return 'Apache-2.0';
  return l;
}

/** "fine-tuned from org/model", "distilled from …", "quantized version of …", "based on …": bounded gaps, linear. */
const PROSE_LINEAGE =
  /\b(fine-?tuned[ \t]{1,3}(?:from|on|version[ \t]{1,3}of)|distilled[ \t]{1,3}from|quanti[sz]ed[ \t]{1,3}(?:version[ \t]{1,3}of|from)|based[ \t]{1,3}on)[ \t]{1,3}[[`*]{0,2}(?:https:\/\/huggingface\.co\/)?([A-Za-z0-9][\w.-]{0,95}\/[A-Za-z0-9][\w.-]{0,95})/i;

export function parseModelIndexCard(p: ParsedManifest, fm: Obj, body: string): void {
  p.card = fm;
  p.body = body;
  p.licenses = licenseFromValue(fm.license);
  p.license_name = str(fm.license_name);
  p.base_models = strList(fm.base_model);
  p.base_model_relation = str(fm.base_model_relation);
  p.datasets = strList(fm.datasets);
  if (p.base_models.length === 0) {
    // lineage stated in prose: only a resolvable owner/name id, never a bare family name
    const m = PROSE_LINEAGE.exec(body.slice(0, 20_000));
    if (m?.[2]) {
      p.base_models = [m[2].endsWith('.') ? m[2].slice(0, -1) : m[2]];
      p.base_model_relation = p.base_model_relation ?? (/quanti/i.test(m[1] ?? '') ? 'quantized' : 'finetune');
    }
  }
  p.tags = strList(fm.tags);
  p.pipeline_tag = str(fm.pipeline_tag);
  p.library_name = str(fm.library_name);
  p.model_index = fm['model-index'] ?? null;
  const mf = str(fm.model_file);
  if (mf) p.files.push({ path: mf });
  if (typeof fm.chat_template === 'string') p.chat_template = fm.chat_template;
}

/** Whether a text is a markdown document (a heading line). */
export function hasHeadings(text: string): boolean {
  return /^#{1,6}\s/m.test(text);
}

/**
 * A card: its front matter (null when absent or invalid YAML) and its body. The licence the front matter does not
 * name is taken from the prose, at lower confidence (`license_text: 'prose'`).
 */
export function parseCard(p: ParsedManifest, fm: Obj | null, body: string): void {
  parseModelIndexCard(p, fm ?? {}, body);
  if (p.licenses.length === 0) {
    const pl = proseLicense(body);
    if (pl) {
      p.licenses = [pl];
      p.license_text = 'prose';
    }
  }
}
