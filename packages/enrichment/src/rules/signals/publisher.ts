// Publisher checks: verified namespaces, typosquats of well-known names, and authorship claims in a card that name
// someone other than the publisher (docs/enrichment.md R14, R15; data in src/data/publishers.json, and the AI
// libraries' registry names in src/data/ai-packages.json).
import publishers from '../../data/publishers.json';
import { editDistance } from '../../util';
import { aiPackageNames } from './ai-packages';

export const VERIFIED = new Set(publishers.verified_publishers.map((x) => x.toLowerCase()));
/** The curated publisher and package names, then every listed AI library's registry name. */
const WELL_KNOWN = [...new Set([...publishers.well_known_names.map((x) => x.toLowerCase()), ...aiPackageNames()])];
const WELL_KNOWN_SET = new Set(WELL_KNOWN);
const NOT_TYPOSQUATS = new Set(publishers.not_typosquats.map((x) => x.toLowerCase()));
const HOMOGLYPH: Array<[RegExp, string]> = [
  [/0/g, 'o'],
  [/1/g, 'l'],
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/[іı]/g, 'i'],
  [/[оο]/g, 'o'],
  [/[аɑ]/g, 'a'],
  [/[еє]/g, 'e'],
  [/[ѕ]/g, 's'],
  [/[сϲ]/g, 'c'],
  [/[р]/g, 'p'],
];

/** A name on the well-known list (the packages and publishers squats and re-uploads imitate). */
export function isWellKnownName(n: string): boolean {
  return WELL_KNOWN_SET.has(n.toLowerCase());
}

export function isVerifiedPublisher(p: string | null): boolean {
  return !!p && VERIFIED.has(p.toLowerCase());
}

/**
 * The forms of a name the typosquat check compares: without separators (an npm scope's `@` and `/` are separators too:
 * `@langchain/openai` is langchain's openai package, as `langchain-openai` is), and with every digit run as `#`.
 */
const withoutSeparators = (s: string) => s.replace(/[-_.@/]/g, '');
const digitsFolded = (s: string) => s.replace(/\d+/g, '#');
/** The well-known names long enough to be squatted, with their compared forms computed once, not per check. */
const SQUAT_TARGETS = WELL_KNOWN.filter((w) => w.length >= 5).map((w) => ({
  name: w,
  bare: withoutSeparators(w),
  folded: digitsFolded(w),
}));

/**
 * Build variants one project publishes side by side (`faiss-cpu`/`faiss-gpu`, `tensorflow-cpu`/`tensorflow-gpu`): two
 * names that differ only in one such segment are siblings, not a squat of each other.
 */
const BUILD_VARIANT = /^(?:cpu|gpu|cuda|cu\d{2,3}|rocm|tpu|mps|metal|cli|core|lite|slim|full|headless)$/;
function buildSiblings(a: string, b: string): boolean {
  const sa = a.split(/[-_.]/);
  const sb = b.split(/[-_.]/);
  if (sa.length !== sb.length) return false;
  const diff = sa.flatMap((x, i) => (x === sb[i] ? [] : [[x, sb[i] ?? '']]));
  return diff.length === 1 && diff[0]!.every((x) => BUILD_VARIANT.test(x));
}

/** Name ≤2 edits (≤1 for short names) from a well-known name, or equal after homoglyph folding. */
export function typosquatTarget(name: string): { target: string; distance: number; homoglyph: boolean } | null {
  const n = name.toLowerCase();
  if (n.length < 5 || WELL_KNOWN_SET.has(n) || VERIFIED.has(n) || NOT_TYPOSQUATS.has(n)) return null;
  let folded = n;
  for (const [re, rep] of HOMOGLYPH) folded = folded.replace(re, rep);
  if (folded !== n && WELL_KNOWN_SET.has(folded)) return { target: folded, distance: 0, homoglyph: true };
  const max = n.length <= 6 ? 1 : 2;
  const bare = withoutSeparators(n);
  const digits = digitsFolded(n);
  let best: { target: string; distance: number; homoglyph: boolean } | null = null;
  for (const w of SQUAT_TARGETS) {
    if (Math.abs(w.name.length - n.length) > max) continue;
    // a plain variant that only adds/removes a scope or separator is not a squat
    if (w.bare === bare) continue;
    // names that differ only in digits are versions/series (qwen2 vs qwen3), not squats
    if (w.folded === digits) continue;
    if (buildSiblings(n, w.name)) continue;
    const d = editDistance(n, w.name, max);
    if (d <= max && (!best || d < best.distance)) best = { target: w.name, distance: d, homoglyph: false };
  }
  return best;
}

/** Vendor names as a card's authorship line writes them, mapped to the vendor's Hugging Face organisation. */
const VENDOR_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bmeta\b/i, 'meta-llama'],
  [/\bgoogle\b/i, 'google'],
  [/\bibm\b/i, 'ibm-granite'],
  [/\bmistral ai\b/i, 'mistralai'],
  [/\bmicrosoft\b/i, 'microsoft'],
  [/\bnvidia\b/i, 'nvidia'],
  [/\b(?:alibaba|qwen team)\b/i, 'qwen'],
  [/\bdeepseek\b/i, 'deepseek-ai'],
];
/** A card's authorship line: "Developers: Granite Team, IBM", "Model Developers Meta", "Organization developing the model\nThe FAIR team of Meta AI". Linear: bounded classes, no nesting. */
const AUTHOR_LINE =
  /(?:^|\n)[ \t*_-]{0,6}(?:model[ \t]{1,3})?(?:developers?|authors?|developed[ \t]by|organi[sz]ation[ \t]developing[ \t]the[ \t]model)[ \t*_:]{0,8}\n?[ \t]{0,4}([^\n]{1,80})/gi;
/** Community authors whose cards are commonly copied (the blog and organisation the card links as its own). */
const COMMUNITY_AUTHOR =
  /\b(?:erichartford\.com|huggingface\.co\/(?:collections\/)?(?:cognitivecomputations|ehartford)\b)/i;
/** A link to a Hugging Face model repository (owner/name). */
const HF_REPO_LINK = /huggingface\.co\/([\w.-]{1,96})\/([\w.-]{1,96})/gi;

/** Name suffixes a copy adds without changing the model (format, precision, packaging): "-hf", "-Merged-Safetensors". */
const REPACK_TOKENS = new Set([
  'hf',
  'gguf',
  'ggml',
  'fp16',
  'bf16',
  'fp32',
  'awq',
  'gptq',
  'exl2',
  'safetensors',
  'merged',
  'copy',
  'mirror',
]);
function isRepackSuffix(rest: string): boolean {
  return rest.split(/[-_.]/).every((t) => t === '' || REPACK_TOKENS.has(t));
}

/**
 * Whether a model card names someone other than its publisher as the model's author: a vendor in an authorship line,
 * a community author's own blog/organisation, or a link to a repository of the same model under another owner
 * (docs/enrichment.md R14). Null when nothing names another author.
 */
export function cardAuthorClaim(
  body: string,
  assetName: string,
  publisher: string,
): { origin: string; how: string; match: string } | null {
  const pub = publisher.toLowerCase();
  // "Bria-AI" and "briaai" are spelled alike: likely the vendor's second account, not a copy (kept out to spare FPs).
  const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const text = body.slice(0, 20_000);
  for (const m of text.matchAll(AUTHOR_LINE)) {
    const line = m[1] ?? '';
    for (const [re, org] of VENDOR_WORDS) {
      if (re.test(line) && org !== pub) return { origin: org, how: 'its developer', match: m[0].trim() };
    }
  }
  const community = COMMUNITY_AUTHOR.exec(text);
  if (community && !/hartford|cognitivecomputations/i.test(pub)) {
    return { origin: 'cognitivecomputations (Eric Hartford)', how: 'its author', match: community[0] };
  }
  const own = (assetName.split('/').pop() ?? '').toLowerCase();
  for (const m of text.matchAll(HF_REPO_LINK)) {
    const owner = (m[1] ?? '').toLowerCase();
    const repo = (m[2] ?? '').toLowerCase();
    if (norm(owner) === norm(pub) || owner === 'collections' || owner === 'spaces' || owner === 'datasets') continue;
    if (repo.length >= 6 && own.startsWith(repo) && isRepackSuffix(own.slice(repo.length)))
      return { origin: `${m[1]}/${m[2]}`, how: 'the original', match: m[0] };
  }
  return null;
}
