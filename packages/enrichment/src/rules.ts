import { formatRules, OFFENSIVE_TOOLS } from './format-rules';
import publishers from './data/publishers.json';
import { NON_COMMERCIAL, isRestrictiveLicense, modelLicence, normalizeLicense } from './license';
import { RULE_BY_ID, SEVERITY_WEIGHT } from './rules-table';
import type { EnrichmentInput, FindingDraft, McpServerEntry, ParsedManifest, Severity } from './types';
import { findSecrets, secretKind } from './redact';
import { editDistance, isObj, truncate, uniq } from './util';
import { isPinned, matchAdvisories } from './versions';

const PICKLE_EXT = /\.(bin|pt|pth|pkl|pickle|ckpt|joblib|dill)$/i;
const SAFE_EXT = /\.(safetensors|gguf|onnx)$/i;
const NATIVE_EXT = /\.(so|dll|dylib)$/i;
const PY_EXT = /\.py$/i;
const PICKLE_CRIT =
  /^(os|posix|nt|subprocess|sys|socket|runpy|pty|pickle|shutil)(\.|$)|^(builtins|__builtin__)\.(eval|exec|compile|getattr|apply|open|breakpoint|__import__|execfile)$|^operator\.attrgetter$/;
const PICKLE_HIGH =
  /^(webbrowser|httplib|http\.client|requests\.api|requests|aiohttp\.client|urllib|urllib2|smtplib|ftplib)(\.|$)/;
const JINJA_BAD = /__class__|__subclasses__|__globals__|__builtins__|__import__|__mro__|__base__|popen|os\.system/;
/** Pipeline classes diffusers ships (its pipelines/ families; DiffusionPipeline is the generic loader). */
const DIFFUSERS_PIPELINE =
  /^(?:StableDiffusion|Flux|Kandinsky|PixArt|IF|AudioLDM|StableVideoDiffusion|AnimateDiff|DDPM|DDIM|LDM|StableCascade|Wuerstchen|ControlNet|CogVideoX|CogView|HunyuanDiT|Hunyuan|Sana|LTX|Wan|Mochi|AuraFlow|Kolors|StableUnCLIP|UnCLIP|VersatileDiffusion|ShapE|MusicLDM|ConsistencyModel|DiT|Lumina|QwenImage|HiDream|Chroma|Amused|BlipDiffusion|PaintByExample|SemanticStableDiffusion|TextToVideoSD|VideoToVideoSD|I2VGenXL|AltDiffusion|ScoreSdeVe|PNDM|KarrasVe|DanceDiffusion|RePaint|LatentConsistencyModel|LatentDiffusion|Diffusion|StableAudio|Allegro|Latte|Marigold|UniDiffuser|Kandinsky3|Shap|Bria|Cosmos|SkyReels|EasyAnimate|Consis|OmniGen|VisualCloze|Ledits|StableDiffusionXL)\w*Pipeline$/;
const TRUST_REMOTE = /trust_remote_code\s*=\s*True/;
/** Prose saying remote code is needed ("trust_remote_code is required", "you need trust_remote_code"); bounded gaps. */
const TRUST_REMOTE_PROSE =
  /trust_remote_code`?[ \t]{1,3}(?:is|was)[ \t]{1,3}(?:required|needed|necessary)|(?:requires?|needs?|must[ \t]{1,3}(?:set|pass|use|enable))[ \t]{1,3}`?trust_remote_code/i;
const CODE_CHAINS =
  /\b(LLMMathChain|PALChain|PythonREPLTool|PythonREPL|PythonAstREPLTool|PandasQueryEngine|create_pandas_dataframe_agent|create_python_agent|create_csv_agent)\b/g;
const SAFETY_REMOVED =
  /abliterat|uncensored|heretic|reduced[-_ ]refusal|\bnsfw\b|not-for-all-audiences|jailbr(?:oken|eak)|unfiltered|unaligned/i;
/** Jailbreak instructions in a system prompt (guardrail removal; ATLAS AML.T0054). */
const JAILBREAK_PROMPT =
  /\b(?:always comply|(?:completely|fully) compliant|obey the user|never refuse|do not refuse|don't refuse|without (?:any )?(?:moral|ethical) (?:judgement|judgment|restrictions?)|regardless of (?:the )?(?:ethics|morality|legality)|whether you agree with the ethics|ignore (?:all )?(?:previous|prior) (?:instructions|guidelines)|do anything now|no (?:ethical|moral) (?:guidelines|restrictions|limits))\b/i;
/** A card's own statement that alignment was removed. */
const GUARDRAIL_PROSE =
  /\b(?:uncensored|abliterated|no guardrails|without guardrails|alignment (?:was |has been |is )?removed|(?:removed|stripped) (?:the )?(?:alignment|guardrails|refusals)|compliant (?:to|with) any requests?|does not impose its (?:own )?ethics|jailbreak (?:is )?not required|not (?:been )?(?:tuned|trained) to be safe)\b/i;
/** Ollama bases known as uncensored lines (Dolphin, Wizard-Vicuna uncensored, Nous Hermes uncensored builds). */
const UNCENSORED_BASE = /\bdolphin|wizard-vicuna-uncensored|llama2-uncensored|wizardlm-uncensored/i;
/** Prose scanned for guardrail statements: the card's first 100 000 characters. */
const MAX_PROSE = 100_000;
const ADULT_PROSE = /\bx-rated\b|not suitable for (?:use by )?minors|adult (?:content|theme)/i;
const DERIVED_NAME =
  /(?:^|[-_.])(lora|qlora|adapter|gguf|gptq|awq|exl2|int4|int8|4bit|8bit|quantized|merged?|finetuned?|ft|dpo|sft)(?:$|[-_.])/i;
const FAMILY =
  /(llama|mistral|mixtral|gemma|qwen|phi|falcon|gpt2|gpt-neox|bert|roberta|t5|bart|chatglm|bloom|opt|whisper|stable-diffusion)/i;
const NON_COMMERCIAL_TEXT =
  /non-?commercial (?:research )?(?:purposes|use)|research purposes only|for research only|solely for (?:your )?(?:non-commercial )?research|not for commercial use|commercial use (?:is )?(?:not permitted|prohibited)|open to academic research, and please apply for commercial use/i;
// use-restriction clauses of custom model licences (ChatGLM2, Llama, OpenRAIL); deliberately not "restriction"
// alone, which MIT's "without restriction" would match
const USE_RESTRICTION_TEXT =
  /\byou (?:will|shall|may|must) not (?:use|copy|modify|distribute)\b|\bmay not be used (?:for|to|in)\b|\bmilitary\b|\bprohibited uses?\b|\bacceptable use policy\b|\buse restrictions?\b/i;
const PLACEHOLDER_WORD = /\byour[-_ ]|\bexample\b|\bchangeme\b|\bplaceholder\b|\btodo\b/i;
/** `<…>` or a placeholder word. (`<[^>]*>` as a regex rescanned from every `<` when no `>` followed: quadratic.) */
export function isPlaceholderName(s: string): boolean {
  const lt = s.indexOf('<');
  return (lt >= 0 && s.indexOf('>', lt + 1) >= 0) || PLACEHOLDER_WORD.test(s);
}
/** `<!-- … -->` somewhere: the first `<!--` has a `-->` after it. (`<!--[\s\S]*?-->` was quadratic on repeated `<!--`.) */
export function hasHtmlComment(s: string): boolean {
  const open = s.indexOf('<!--');
  return open >= 0 && s.indexOf('-->', open + 4) >= 0;
}
const GITHUB_HOST = /github\.com[/:]/gi;
/** Owner in `github.com/<owner>/` or `github.com:<owner>/`: the first such occurrence with a non-empty owner. */
export function githubOwner(url: string): string | null {
  GITHUB_HOST.lastIndex = 0;
  for (let m = GITHUB_HOST.exec(url); m; m = GITHUB_HOST.exec(url)) {
    const from = m.index + m[0].length;
    const slash = url.indexOf('/', from);
    if (slash < 0) return null; // no later occurrence can have a closing slash either
    if (slash > from) return url.slice(from, slash);
    GITHUB_HOST.lastIndex = m.index + 1;
  }
  return null;
}
const SECRET_KEY_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|_KEY$|^KEY$/i;
const PLACEHOLDER_VALUE =
  /^\s*$|^\$\{?[\w:.-]+\}?$|^<.*>$|^\{\{.*\}\}$|your|xxx|\.\.\.|changeme|placeholder|example|replace|insert|\*\*\*/i;
const POISON: Array<[string, { test(text: string): boolean }]> = [
  ['important_tag', /<\s*important\s*>/i],
  [
    'ignore_instructions',
    /ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier|other) (?:instructions|prompts|rules|directions)/i,
  ],
  [
    'concealment',
    /do not (?:tell|mention|inform|reveal|notify|show)|don't (?:tell|mention|reveal)|without (?:telling|informing|notifying) the user|the user (?:must not|should not) (?:know|see)/i,
  ],
  [
    'sensitive_path',
    /~\/\.ssh|\bid_rsa\b|\.ssh\/|\bmcp\.json\b|(?:^|[\s/"'`])\.env\b|\.aws\/credentials|\.cursor\/|\.netrc|\/etc\/passwd|claude_desktop_config/i,
  ],
  ['invisible_chars', /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/],
  ['html_comment', { test: hasHtmlComment }],
  [
    'cross_tool_reference',
    /(?:before|after|instead of|when) (?:using|calling|invoking) (?:the |any )?[`'"]?[\w-]+[`'"]? tool|(?:all|every) (?:other )?tools? (?:must|should)|side ?note/i,
  ],
  [
    'exfiltration',
    /(?:send|forward|include|pass|upload) (?:the |all |any )?(?:contents?|data|keys?|secrets?|credentials?|tokens?|conversation|messages?) (?:of |from |to |as )/i,
  ],
];
const SHELL_NAME =
  /(?:^|[_\-.])(exec|execute|shell|bash|sh|zsh|terminal|run[_-]?command|run[_-]?code|run[_-]?script|cmd|powershell|repl|eval|python|subprocess)(?:$|[_\-.])/i;
const SHELL_DESC =
  /\b(?:shell commands?|bash|terminal|command[- ]line|run (?:a |any |arbitrary )?(?:shell |system )?commands?|execute (?:arbitrary |shell |system |python |javascript |)?(?:code|commands?|scripts?)|python repl|code interpreter)\b/i;
const FS_WRITE_NAME =
  /(?:write|edit|create|delete|remove|move|rename|mkdir|upload|append|patch)[_-]?(?:file|files|directory|dir|folder)|(?:file|directory)[_-]?(?:write|delete|remove|move)|git[_-](?:commit|add|reset|checkout|create[_-]branch|push|merge|rebase)|^(?:rm|mv|write|edit)$/i;
const FS_WRITE_DESC =
  /\b(?:write|writes|overwrite|delete|deletes|remove|modify|edit|create) (?:a |the |new |an? existing |)?(?:files?|director(?:y|ies)|folders?)\b|\bcommits? changes\b|\bstag(?:e|es|ing) (?:file|change)/i;
const FS_READ_NAME =
  /(?:read|get|list|search|find)[_-]?(?:file|files|directory|dir|folder|text[_-]?file|media[_-]?file)|directory[_-]?tree|git[_-](?:status|diff|log|show)/i;
const NET_NAME =
  /(?:^|[_\-.])(fetch|http|https|request|curl|wget|browse|browser|navigate|puppeteer|playwright|scrape|crawl|web[_-]?search|download|url|webhook|email|send[_-]?mail|slack|post)(?:$|[_\-.])/i;
const NET_DESC =
  /\b(?:fetch(?:es)? (?:a |any |the )?url|http requests?|web (?:page|content|search)|browser|internet|download(?:s)? (?:from|a)|send (?:an )?e-?mail)\b/i;
const PAY =
  /\b(payment|payments|transfer[_-]?funds|checkout|stripe|paypal|invoice|wallet|purchase|buy|swaps?|limit orders?|trading)\b/i;
/** Messaging that reaches people outside the session (issue 18 item 4: payment/messaging capability). */
const MESSAGING =
  /(?:^|[\s/_-])(twilio|sms|whatsapp|telegram|sendgrid|mailgun|send[_-]?(?:mail|email|message))(?:$|[\s/_-])/i;
/** Infrastructure control servers: container/cluster exec and remote shells (shell_exec by another name). */
const INFRA_EXEC = /(?:^|[\s/_-])(docker|kubernetes|kubectl|k8s|ssh|ansible|terraform)(?:$|[\s/._-])/i;
/** Cloud accounts whose servers hold account credentials. */
const CLOUD_CREDENTIALS = /(?:^|[\s/_-])(aws|gcp|azure|vault|secrets?[_-]?manager|1password|bitwarden)(?:$|[\s/._-])/i;
/** A launcher that hands its arguments to a shell: a shell binary, WSL, or any command given `-c`. */
const MCP_KINDS = new Set(['mcp_server_json', 'mcp_client_config', 'mcp_tools', 'mcpb_manifest', 'agent_config']);
/** A filesystem root that is a whole home directory or the disk: `/`, `~`, `$HOME`, `/Users/x`, `/home/x`, `C:\\Users\\x`. */
const BROAD_ROOT =
  /^(?:\/|~|\$\{?HOME\}?|%USERPROFILE%|\/root|\/(?:Users|home)\/[^/\\]+|[A-Za-z]:(?:\\Users\\[^/\\]+)?)$/;
/** `x` without trailing `/` or `\\` (a loop: `/[\\/]+$/` is quadratic on a long run of slashes); `/` stays `/`. */
function withoutTrailingSlashes(x: string): string {
  let end = x.length;
  while (end > 1 && (x[end - 1] === '/' || x[end - 1] === '\\')) end--;
  return x.slice(0, end);
}
const SHELL_BINARY = /^(?:bash|sh|zsh|fish|powershell|pwsh|cmd|wsl)(?:\.exe)?$/i;
const SERVER_FS = /(?:^|[/@_-])(?:server-)?filesystem(?:$|[_-])|(?:^|[/_-])(?:mcp-server-)?git(?:$|[_-])/i;
const SERVER_FETCH = /(?:^|[/_-])(?:mcp-server-)?(?:fetch|puppeteer|playwright|browser|brave-search)(?:$|[_-])/i;
const LAUNCHERS = /^(?:npx|uvx|pipx|bunx|pnpm dlx|yarn dlx)$/;
const PRIV_ARGS = /^--privileged$|^--(?:network|net)(?:=|\s)?host$|docker\.sock|^--pid(?:=|\s)?host$|^--cap-add/;
const HOME_MOUNT = /(?:^|[\s=:])(?:\$HOME|~|\/home\/[\w.-]+|\/root|\/Users\/[\w.-]+)(?:\/?)(?::|$)/;
const BIND_ALL = /0\.0\.0\.0/;

const VERIFIED = new Set(publishers.verified_publishers.map((x) => x.toLowerCase()));
const WELL_KNOWN = publishers.well_known_names.map((x) => x.toLowerCase());
const WELL_KNOWN_SET = new Set(WELL_KNOWN);
const NOT_TYPOSQUATS = new Set(publishers.not_typosquats.map((x) => x.toLowerCase()));
const VENDOR_FAMILIES = publishers.vendor_families as Record<string, { family: string; license: string }>;
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

export function isVerifiedPublisher(p: string | null): boolean {
  return !!p && VERIFIED.has(p.toLowerCase());
}

/** Name ≤2 edits (≤1 for short names) from a well-known name, or equal after homoglyph folding. */
export function typosquatTarget(name: string): { target: string; distance: number; homoglyph: boolean } | null {
  const n = name.toLowerCase();
  if (n.length < 5 || WELL_KNOWN_SET.has(n) || VERIFIED.has(n) || NOT_TYPOSQUATS.has(n)) return null;
  let folded = n;
  for (const [re, rep] of HOMOGLYPH) folded = folded.replace(re, rep);
  if (folded !== n && WELL_KNOWN_SET.has(folded)) return { target: folded, distance: 0, homoglyph: true };
  const max = n.length <= 6 ? 1 : 2;
  let best: { target: string; distance: number; homoglyph: boolean } | null = null;
  for (const w of WELL_KNOWN) {
    if (w.length < 5 || Math.abs(w.length - n.length) > max) continue;
    // a plain variant that only adds/removes a scope or separator is not a squat
    if (w.replace(/[-_.]/g, '') === n.replace(/[-_.]/g, '')) continue;
    // names that differ only in digits are versions/series (qwen2 vs qwen3), not squats
    if (w.replace(/\d+/g, '#') === n.replace(/\d+/g, '#')) continue;
    const d = editDistance(n, w, max);
    if (d <= max && (!best || d < best.distance)) best = { target: w, distance: d, homoglyph: false };
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
 * (docs/enrichment.md R14; issue 18 item 6). Null when nothing names another author.
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

export type Ctx = {
  input: EnrichmentInput;
  p: ParsedManifest;
  raw: string;
  publisher: string | null;
  out: FindingDraft[];
};

export function add(
  ctx: Ctx,
  ruleId: string,
  o: {
    severity?: Severity;
    confidence?: number;
    description: string;
    evidence: Record<string, unknown>;
    capabilities?: string[];
    cve_ids?: string[];
    title?: string;
    attack_techniques?: string[];
  },
): void {
  const def = RULE_BY_ID.get(ruleId);
  if (!def) return;
  const severity = o.severity ?? def.severity;
  const confidence = o.confidence ?? 1;
  ctx.out.push({
    rule_id: ruleId,
    title: o.title ?? def.title,
    description: o.description,
    severity,
    category: def.category,
    confidence,
    evidence: o.evidence,
    capabilities: o.capabilities ?? [],
    attack_techniques: o.attack_techniques ?? def.attack_techniques,
    cve_ids: o.cve_ids ?? [],
    threat_ids: [],
    remediation: def.remediation,
    weight: Math.round(SEVERITY_WEIGHT[severity] * confidence * 100) / 100,
  });
}

function serializationRules(ctx: Ctx): void {
  const { p } = ctx;
  const paths = uniq(p.files.map((f) => f.path));
  const pickles = paths.filter(
    (f) => PICKLE_EXT.test(f) && !/(^|\/)(training_args|optimizer|scheduler|rng_state)[^/]*$/.test(f),
  );
  const safe = paths.filter((f) => SAFE_EXT.test(f));
  if (pickles.length > 0 && safe.length === 0) {
    add(ctx, 'R01', {
      description: `${pickles.length} pickle-based weight file(s) and no safetensors/GGUF/ONNX alternative.`,
      evidence: {
        path: p.kind === 'weight_index' ? 'weight_map' : 'files',
        files: pickles.slice(0, 20),
        count: pickles.length,
      },
      capabilities: ['code_execution_on_load'],
    });
  }
  const crit = p.pickle_imports.filter((x) => PICKLE_CRIT.test(x));
  const high = p.pickle_imports.filter((x) => PICKLE_HIGH.test(x) && !PICKLE_CRIT.test(x));
  if (crit.length)
    add(ctx, 'R02', {
      description: `Pickle imports ${crit.slice(0, 5).join(', ')}.`,
      evidence: { path: 'metadata.pickle_imports', imports: crit.slice(0, 20) },
      capabilities: ['code_execution_on_load'],
    });
  if (high.length)
    add(ctx, 'R03', {
      description: `Pickle imports network modules ${high.slice(0, 5).join(', ')}.`,
      evidence: { path: 'metadata.pickle_imports', imports: high.slice(0, 20) },
      capabilities: ['code_execution_on_load', 'network_egress'],
    });
  if (p.keras_config !== null && p.keras_config !== undefined) {
    const hits: string[] = [];
    const walk = (v: unknown, depth: number): void => {
      if (depth > 12 || hits.length > 10) return;
      if (Array.isArray(v)) {
        for (const x of v) walk(x, depth + 1);
        return;
      }
      if (!isObj(v)) return;
      if (v.class_name === 'Lambda') hits.push('Lambda');
      if (typeof v.module === 'string' && !/^keras(\.|$)/.test(v.module) && !/^tensorflow\.keras/.test(v.module))
        hits.push(`module:${v.module}`);
      for (const k of Object.keys(v)) walk(v[k], depth + 1);
    };
    walk(p.keras_config, 0);
    if (hits.length)
      add(ctx, 'R04', {
        description: `Keras config contains ${uniq(hits).join(', ')}.`,
        evidence: { path: 'keras_config', hits: uniq(hits) },
        capabilities: ['code_execution_on_load'],
      });
  }
  const remote: Record<string, unknown> = {};
  if (p.config?.auto_map) remote.auto_map = p.config.auto_map;
  const pyFiles = paths.filter((f) => PY_EXT.test(f));
  if (pyFiles.length && (ctx.input.asset_type === 'model' || p.kind === 'weight_index'))
    remote.python_files = pyFiles.slice(0, 20);
  // a diffusers model_index.json naming a pipeline class diffusers does not ship: from_pretrained can only load it as
  // repository code (custom_pipeline / trust_remote_code)
  const pipeline = p.config?.model_type === 'diffusers' ? (p.config.architectures[0] ?? '') : '';
  if (pipeline && !DIFFUSERS_PIPELINE.test(pipeline)) remote.custom_pipeline = pipeline.slice(0, 120);
  if (Object.keys(remote).length) {
    add(ctx, 'R05', {
      description: 'Loading requires trust_remote_code: repository Python runs on load.',
      evidence: { path: remote.auto_map ? 'auto_map' : 'files', ...remote },
      capabilities: ['remote_code'],
    });
  } else if (ctx.raw && (TRUST_REMOTE.test(ctx.raw) || TRUST_REMOTE_PROSE.test(ctx.raw))) {
    const prose = TRUST_REMOTE.test(ctx.raw) ? null : TRUST_REMOTE_PROSE.exec(ctx.raw);
    add(ctx, 'R05', {
      confidence: 0.6,
      description: prose
        ? `The card states that loading needs trust_remote_code ("${truncate(prose[0], 60)}").`
        : 'Usage instructions load the model with trust_remote_code=True.',
      evidence: { path: 'body', match: prose ? truncate(prose[0], 120) : 'trust_remote_code=True' },
      capabilities: ['remote_code'],
    });
  }
  if (p.chat_template && JINJA_BAD.test(p.chat_template)) {
    const m = JINJA_BAD.exec(p.chat_template);
    add(ctx, 'R06', {
      description: 'Chat template references Python internals usable for a Jinja sandbox escape.',
      evidence: { path: 'chat_template', match: m ? m[0] : null },
      capabilities: ['code_execution_on_load'],
      cve_ids: [],
    });
  }
  const native = paths.filter((f) => NATIVE_EXT.test(f));
  const traversal = paths.filter((f) => /(^|[\\/])\.\.([\\/]|$)/.test(f));
  if (p.custom_ops.length || native.length || traversal.length) {
    add(ctx, 'R07', {
      description: 'Model runtime loads native code or references paths outside the model directory.',
      evidence: {
        path: p.custom_ops.length ? 'custom_ops_library' : 'files',
        custom_ops: p.custom_ops,
        native_files: native.slice(0, 10),
        traversal: traversal.slice(0, 10),
      },
      capabilities: ['native_code'],
    });
  }
  if (safe.length > 0 && pickles.length === 0)
    add(ctx, 'R00', {
      description: 'Weights are available in a non-executable format.',
      evidence: { path: 'files', formats: uniq(safe.map((f) => (f.split('.').pop() ?? '').toLowerCase())) },
    });
}

const LICENSE_TYPES = new Set(['model', 'dataset', 'package', 'mcp_server', 'extension']);

/**
 * Formats that never carry a licence (issue 18 item 5: "missing" only where a licence belongs): configs, listings,
 * client configs, registry server.json (the licence lives in the package it points to), tool lists, Modelfiles
 * (LICENSE is optional and rare), container files, extension manifests, and content not recognised as a manifest.
 */
const NO_LICENSE_KINDS = new Set([
  'mcp_server_json',
  'modelfile',
  'dockerfile',
  'compose',
  'browser_extension',
  'notebook',
  'json',
  'yaml',
  'toml',
  'text',
  'hf_config',
  'weight_index',
  'file_listing',
  'mcp_tools',
  'mcp_client_config',
  'agent_config',
  'keras_config',
  'tokenizer_config',
  'onnx_genai_config',
  'requirements',
]);

function licenseRules(ctx: Ctx): void {
  const { p, input } = ctx;
  const lic = p.licenses;
  const hasManifest = p.kind !== 'empty';
  // a setup.cfg with no [metadata] name holds tool settings only (no package metadata to carry a licence)
  const carriesLicense = !NO_LICENSE_KINDS.has(p.kind) && !(p.kind === 'setup_cfg' && !p.name);
  if (lic.length === 0 && !p.license_text && LICENSE_TYPES.has(input.asset_type) && carriesLicense) {
    add(ctx, 'R08', {
      confidence: hasManifest ? 1 : 0.6,
      description: hasManifest ? 'The manifest declares no licence.' : 'No manifest and no licence in metadata.',
      evidence: { path: 'license', manifest_kind: p.kind },
    });
  }
  const prose = p.license_text === 'prose';
  for (const l of lic) {
    const info = normalizeLicense(l);
    // npm documents `SEE LICENSE IN <file>` for a licence shipped as a file: a licence, not a malformed id
    const seeFile = /^SEE LICEN[SC]E IN\s/i.test(l);
    // a custom model licence (src/data/model-licences.json), by id or by the card's license_name
    const model = modelLicence(l) ?? (l.toLowerCase() === 'other' ? modelLicence(p.license_name) : null);
    if (model && !(prose && NON_COMMERCIAL.test(l))) {
      const terms = [
        model.commercial === 'no'
          ? 'no commercial use'
          : model.commercial === 'conditional'
            ? `commercial use conditional (${model.commercial_note ?? 'see licence'})`
            : null,
        model.field_of_use ? `field-of-use restrictions (${model.field_of_use_note ?? 'acceptable-use policy'})` : null,
        model.attribution ? 'attribution required' : null,
        model.no_derivatives ? 'no derivatives' : null,
      ].filter((x): x is string => !!x);
      add(ctx, model.commercial === 'no' ? 'R09' : 'R10', {
        // issue 18 item 5: a known custom model licence with commercial or field-of-use terms is medium (corpus
        // c035 Gemma, c064 Llama 3.1); prose mentions stay at low confidence
        severity: 'medium',
        confidence: prose ? 0.6 : 1,
        description: `${model.name}: ${terms.join('; ')}.`,
        evidence: {
          path: 'license',
          license: l,
          license_name: p.license_name,
          model_licence: model.id,
          commercial: model.commercial,
          field_of_use: model.field_of_use,
          attribution: model.attribution,
        },
      });
      continue;
    }
    if (!info.valid && !info.hf_custom && !seeFile) {
      add(ctx, 'R28', {
        confidence: 1,
        description: `Licence "${truncate(l, 60)}" is not an SPDX identifier or expression.`,
        evidence: { path: 'license', license: truncate(l, 120) },
      });
    }
    if (NON_COMMERCIAL.test(l))
      add(ctx, 'R09', {
        confidence: prose ? 0.3 : 1,
        description: `Licence ${l} forbids commercial use.`,
        evidence: { path: 'license', license: l },
      });
    else if (isRestrictiveLicense(l.toLowerCase()))
      add(ctx, 'R10', {
        confidence: prose ? 0.3 : 1,
        description: `Licence ${l}${p.license_name ? ` (${p.license_name})` : ''} carries use restrictions.`,
        evidence: { path: 'license', license: l, license_name: p.license_name },
      });
  }
  const card = p.card ?? {};
  if (card.commercial === false || (typeof card.commercial === 'string' && /^(no|false)$/i.test(card.commercial))) {
    add(ctx, 'R09', {
      description: 'Model card states commercial: no.',
      evidence: { path: 'commercial', value: card.commercial },
    });
  } else if (!lic.some((l) => NON_COMMERCIAL.test(l))) {
    const text = p.body ?? p.license_text ?? p.modelfile?.license ?? '';
    const m = text ? NON_COMMERCIAL_TEXT.exec(text) : null;
    if (m)
      add(ctx, 'R09', {
        confidence: p.kind === 'text' ? 1 : 0.6,
        description: 'Licence text restricts use to (non-commercial) research.',
        evidence: { path: p.kind === 'text' ? 'license_text' : 'body', match: truncate(m[0], 120) },
      });
  }
  // a licence shipped as text (MODEL_LICENSE, Modelfile LICENSE) rather than an id: custom by definition; R10 when
  // it restricts use (and R09 did not already classify it as non-commercial)
  const fullText = p.license_text && p.license_text !== 'prose' ? p.license_text : null;
  if (fullText && lic.length === 0 && !ctx.out.some((f) => f.rule_id === 'R09' || f.rule_id === 'R10')) {
    const m = USE_RESTRICTION_TEXT.exec(fullText);
    if (m)
      add(ctx, 'R10', {
        confidence: 0.6,
        description: 'Custom licence text with use restrictions.',
        evidence: { path: 'license_text', match: truncate(m[0], 120) },
      });
  }
  // R11: derivative declares a permissive licence while its base is from a vendor family with a restrictive licence
  const md = isObj(input.metadata) ? input.metadata : {};
  const baseLicense = typeof md.base_model_license === 'string' ? md.base_model_license : null;
  for (const b of p.base_models) {
    const org = b.includes('/') ? (b.split('/')[0] ?? '').toLowerCase() : '';
    const inherited = baseLicense ?? VENDOR_FAMILIES[org]?.license ?? null;
    if (!inherited || lic.length === 0) continue;
    const inhRestrictive = isRestrictiveLicense(inherited) || NON_COMMERCIAL.test(inherited);
    const declaredPermissive = lic.every((l) => {
      const i = normalizeLicense(l);
      return i.valid && !NON_COMMERCIAL.test(l) && !isRestrictiveLicense(l.toLowerCase());
    });
    if (inhRestrictive && declaredPermissive) {
      add(ctx, 'R11', {
        confidence: baseLicense ? 1 : 0.6,
        description: `Declares ${lic.join(', ')} but base model ${b} is under ${inherited}.`,
        evidence: { path: 'license', declared: lic, base_model: b, inherited },
      });
      break;
    }
  }
  if (lic.length > 0 && lic.every((l) => normalizeLicense(l).valid))
    add(ctx, 'R00', {
      description: 'Licence declared with a valid SPDX identifier.',
      evidence: { path: 'license', license: lic },
    });
}

function provenanceRules(ctx: Ctx): void {
  const { p, input } = ctx;
  const name = input.name ?? p.name ?? '';
  const short = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
  const isModel = input.asset_type === 'model';
  if (isModel && p.base_models.length === 0) {
    const derived =
      DERIVED_NAME.test(short) ||
      p.tags.some((t) => /^(lora|peft|merge|mergekit|gguf|gptq|awq|quantized|adapter)$/i.test(t)) ||
      /^peft$/i.test(p.library_name ?? '');
    if (derived)
      add(ctx, 'R12', {
        confidence: 0.6,
        description: `"${short}" looks derived (adapter/quantized/merged) but declares no base_model.`,
        evidence: { path: 'base_model', name: short, tags: p.tags.slice(0, 10) },
      });
  }
  if (isModel && p.config?.model_type && short) {
    const nf = FAMILY.exec(short);
    const cf = FAMILY.exec(p.config.model_type);
    if (
      nf &&
      cf &&
      nf[1] &&
      cf[1] &&
      nf[1].toLowerCase() !== cf[1].toLowerCase() &&
      !p.config.architectures.join(' ').toLowerCase().includes(nf[1].toLowerCase())
    ) {
      add(ctx, 'R12', {
        confidence: 0.6,
        description: `Name suggests ${nf[1]} but config model_type is ${p.config.model_type}.`,
        evidence: { path: 'model_type', name: short, model_type: p.config.model_type },
      });
    }
  }
  // issue 18 item 6: a Modelfile whose SYSTEM prompt is a jailbreak ("always comply", "obey the user") removes the
  // guardrails for every user of the model: high, ATLAS AML.T0054 (LLM Jailbreak)
  const mf = p.modelfile;
  const jb = mf?.system ? JAILBREAK_PROMPT.exec(mf.system) : null;
  const prose = p.body ? GUARDRAIL_PROSE.exec(p.body.slice(0, MAX_PROSE)) : null;
  if (jb) {
    const base = mf?.from ?? '';
    add(ctx, 'R13', {
      severity: 'high',
      title: 'Jailbreak system prompt (guardrail removal)',
      description: `SYSTEM prompt instructs the model to "${truncate(jb[0], 60)}"${
        SAFETY_REMOVED.test(base) || UNCENSORED_BASE.test(base) ? ` on an uncensored base (${truncate(base, 60)})` : ''
      }: safety refusals are disabled for every user.`,
      evidence: { path: 'SYSTEM', match: truncate(jb[0], 120), from: truncate(base, 120) },
      attack_techniques: ['AML.T0054', 'AML.T0051'],
    });
  } else if (SAFETY_REMOVED.test(name) || p.tags.some((t) => SAFETY_REMOVED.test(t))) {
    add(ctx, 'R13', {
      // the publisher's own name or tag says so: confident enough for the medium band (was 0.6, issue 18 item 3)
      confidence: 0.8,
      description: 'Name or tags indicate removed safety alignment or NSFW content.',
      evidence: { path: 'name/tags', name, tags: p.tags.filter((t) => SAFETY_REMOVED.test(t)) },
    });
  } else if (prose) {
    add(ctx, 'R13', {
      confidence: 0.8,
      description: `Model card states its safety alignment is removed ("${truncate(prose[0], 60)}").`,
      evidence: { path: 'body', match: truncate(prose[0], 120) },
    });
  } else if (p.body && ADULT_PROSE.test(p.body)) {
    const m = ADULT_PROSE.exec(p.body);
    add(ctx, 'R13', {
      confidence: 0.3,
      description: 'Model card describes adult/NSFW output.',
      evidence: { path: 'body', match: m ? m[0] : null },
    });
  }
  // R14: publisher verification
  const mcpName = p.mcp_name ?? (p.kind === 'mcp_server_json' ? p.name : null);
  if (mcpName && isPlaceholderName(mcpName)) {
    add(ctx, 'R14', {
      description: `Server name "${mcpName}" is a placeholder.`,
      evidence: { path: 'name', name: mcpName },
    });
  } else if (mcpName) {
    const m = /^io\.github\.([^/]+)\//i.exec(mcpName);
    const repoOwner = p.repository_url ? githubOwner(p.repository_url) : null;
    if (m && m[1] && repoOwner && m[1].toLowerCase() !== repoOwner.toLowerCase()) {
      add(ctx, 'R14', {
        description: `Namespace io.github.${m[1]} does not match repository owner ${repoOwner}.`,
        evidence: { path: 'name', namespace_owner: m[1], repository_owner: repoOwner },
      });
    }
  }
  const nop = p.config?.name_or_path;
  if (nop && /^[\w.-]+\/[\w.-]+$/.test(nop) && ctx.publisher) {
    const origOrg = (nop.split('/')[0] ?? '').toLowerCase();
    if (
      origOrg !== ctx.publisher.toLowerCase() &&
      VERIFIED.has(origOrg) &&
      !VERIFIED.has(ctx.publisher.toLowerCase())
    ) {
      add(ctx, 'R14', {
        confidence: 0.6,
        description: `Re-upload: config says ${nop} but the publisher is ${ctx.publisher}.`,
        evidence: { path: '_name_or_path', name_or_path: nop, publisher: ctx.publisher },
      });
    }
  }
  if (p.kind === 'hf_model_card' && p.body && ctx.publisher && !VERIFIED.has(ctx.publisher.toLowerCase())) {
    const claim = cardAuthorClaim(p.body, ctx.input.name ?? p.name ?? '', ctx.publisher);
    if (claim) {
      // A copy is low on its own (0.6: one band down); licence and safety findings carry the rest (issue 18 item 6).
      add(ctx, 'R14', {
        confidence: 0.6,
        description: `Re-upload: the card names ${claim.origin} as ${claim.how}, but the publisher is ${ctx.publisher}.`,
        evidence: { path: 'body', origin: claim.origin, match: truncate(claim.match, 120), publisher: ctx.publisher },
      });
    }
  }
  // R15: typosquats on the asset name, its publisher, and dependency names
  const seen = new Set<string>();
  const check = (candidate: string, path: string, conf: number): void => {
    if (!candidate || seen.has(candidate)) return;
    seen.add(candidate);
    const t = typosquatTarget(candidate);
    if (t)
      add(ctx, 'R15', {
        confidence: conf,
        description: `"${candidate}" resembles "${t.target}"${t.homoglyph ? ' (homoglyph)' : ` (edit distance ${t.distance})`}.`,
        evidence: { path, name: candidate, resembles: t.target, distance: t.distance, homoglyph: t.homoglyph },
      });
  };
  if (name) {
    check(name.toLowerCase(), 'name', 0.6);
    if (short !== name) check(short.toLowerCase(), 'name', 0.6);
  }
  if (ctx.publisher) check(ctx.publisher.toLowerCase(), 'publisher', 0.6);
  for (const d of p.dependencies.slice(0, 200)) check(d.name.toLowerCase(), d.path, 0.6);
}

/** R23 confidence for advisories whose `verification` is not `primary` (below the 0.9 floor threshold). */
export const SECONDARY_ADVISORY_CONFIDENCE = 0.8;
/** R23 confidence for an advisory matched on a declared dependency rather than the asset itself (reachability unknown). */
export const DEPENDENCY_ADVISORY_CONFIDENCE = 0.6;

const MAX_TOOL_TEXT = 20_000;
function toolText(t: { name: string; description: string; inputSchema: unknown }): string {
  let s = t.description.length > MAX_TOOL_TEXT ? t.description.slice(0, MAX_TOOL_TEXT) : t.description;
  if (isObj(t.inputSchema) && isObj(t.inputSchema.properties)) {
    const props = t.inputSchema.properties;
    for (const k of Object.keys(props)) {
      const v = props[k];
      if (isObj(v) && typeof v.description === 'string') s += '\n' + v.description;
    }
  }
  return s;
}

function capabilityRules(ctx: Ctx): void {
  const { p } = ctx;
  const poisoned: Array<{ tool: string; indicators: string[] }> = [];
  const shell: string[] = [];
  const fsWrite: string[] = [];
  const fsRead: string[] = [];
  const net: string[] = [];
  const pay: string[] = [];
  const unannotated: string[] = [];
  for (const t of p.tools.slice(0, 500)) {
    const text = toolText(t);
    const ind = POISON.filter(([, re]) => re.test(text)).map(([k]) => k);
    if (ind.length) poisoned.push({ tool: t.name, indicators: ind });
    const ann = t.annotations ?? {};
    if (SHELL_NAME.test(t.name) || SHELL_DESC.test(t.description)) shell.push(t.name);
    if (FS_WRITE_NAME.test(t.name) || (FS_WRITE_DESC.test(t.description) && ann.readOnlyHint !== true))
      fsWrite.push(t.name);
    else if (FS_READ_NAME.test(t.name)) fsRead.push(t.name);
    if (NET_NAME.test(t.name) || NET_DESC.test(t.description)) net.push(t.name);
    if (PAY.test(t.name) || PAY.test(t.description)) pay.push(t.name);
    if (!t.annotations) unannotated.push(t.name);
  }
  // server-level hints (package/server names)
  const serverNames = uniq(
    [
      p.name ?? '',
      ctx.input.name ?? '',
      ...p.servers.map((s) => s.identifier ?? s.name),
      ...p.servers.flatMap((s) => s.args.filter((a) => !a.startsWith('-'))),
    ].filter(Boolean),
  );
  const fsServers = serverNames.filter((n) => SERVER_FS.test(n));
  const netServers = serverNames.filter((n) => SERVER_FETCH.test(n));
  const shellServers = p.servers
    .filter(
      (s) =>
        (s.command && SHELL_BINARY.test(base(s.command))) ||
        s.args.some((a, i) => SHELL_BINARY.test(base(a)) && s.args[i + 1] === '-c'),
    )
    .map((s) => s.name);
  // issue 18 item 4: what the server says it does (its own description) and what its names say; only for MCP
  // servers and tool lists (a library named for docker or a requirements file named for kali grants no agent anything)
  const mcp = p.servers.length > 0 || p.tools.length > 0 || MCP_KINDS.has(p.kind);
  const desc = mcp ? (p.description ?? '') : '';
  const names = mcp ? serverNames : [];
  if (SHELL_DESC.test(desc)) shell.push('(server description)');
  const offensive = uniq(
    [...names, desc, ...p.tools.slice(0, 500).map((t) => t.name)]
      .map((t) => OFFENSIVE_TOOLS.exec(t)?.[0]?.toLowerCase())
      .filter((x): x is string => !!x),
  );
  const infra = uniq(names.map((n) => INFRA_EXEC.exec(n)?.[1]?.toLowerCase()).filter((x): x is string => !!x));
  const cloud = uniq(names.map((n) => CLOUD_CREDENTIALS.exec(n)?.[1]?.toLowerCase()).filter((x): x is string => !!x));
  if (PAY.test(desc)) pay.push('(server description)');
  const messaging = uniq(
    [...names, desc].map((n) => MESSAGING.exec(n)?.[1]?.toLowerCase()).filter((x): x is string => !!x),
  );
  if (offensive.length)
    add(ctx, 'R17', {
      title: 'Offensive-security tooling exposed to an agent',
      description: `Offensive-security tools (${offensive.slice(0, 6).join(', ')}): scanning and exploitation on the agent's command.`,
      evidence: { path: 'servers', tools: offensive.slice(0, 20) },
      capabilities: ['shell_exec', 'offensive_security'],
    });
  else if (infra.length && !shell.length && !shellServers.length)
    add(ctx, 'R17', {
      confidence: 0.6,
      title: 'Infrastructure control (container, cluster or remote shell)',
      description: `Servers named for ${infra.join(', ')}: exec into containers, clusters or hosts.`,
      evidence: { path: 'servers', systems: infra },
      capabilities: ['shell_exec'],
    });
  if (cloud.length && !p.servers.some((s) => s.secretEnv.length > 0))
    add(ctx, 'R20', {
      confidence: 0.6,
      title: 'Cloud account or secret-store access',
      description: `Servers named for ${cloud.join(', ')} act with the account's credentials.`,
      evidence: { path: 'servers', systems: cloud },
      capabilities: ['credentials'],
    });
  if (messaging.length)
    add(ctx, 'R19', {
      confidence: 0.8,
      title: 'Messaging capability',
      description: `Sends messages to people outside the session (${messaging.join(', ')}).`,
      evidence: { path: 'servers', systems: messaging },
      capabilities: ['messaging'],
    });
  if (poisoned.length) {
    add(ctx, 'R16', {
      description: `Tool description(s) contain injection indicators: ${poisoned
        .map((x) => `${x.tool} [${x.indicators.join(', ')}]`)
        .slice(0, 5)
        .join('; ')}.`,
      evidence: { path: 'tools[].description', tools: poisoned.slice(0, 20) },
      capabilities: ['prompt_injection'],
    });
  }
  if (shell.length || shellServers.length)
    add(ctx, 'R17', {
      confidence: shell.length ? 1 : 0.6,
      description: `Shell/code execution via ${[...shell, ...shellServers].slice(0, 5).join(', ')}.`,
      evidence: { path: 'tools', tools: shell.slice(0, 20), servers: shellServers },
      capabilities: ['shell_exec'],
    });
  // issue 18 item 4: a filesystem server rooted at a home directory or the root reaches ~/.ssh and cloud credentials
  const broadRoots = fsServers.length
    ? uniq(p.servers.flatMap((sv) => sv.args.filter((x) => BROAD_ROOT.test(withoutTrailingSlashes(x)))))
    : [];
  if (fsWrite.length || fsServers.length)
    add(ctx, 'R18', {
      confidence: fsWrite.length || broadRoots.length ? 1 : 0.6,
      ...(broadRoots.length ? { title: 'Filesystem access rooted at a home directory or the root' } : {}),
      description: `Filesystem write or repository manipulation via ${[...fsWrite, ...fsServers].slice(0, 5).join(', ')}.`,
      evidence: {
        path: 'tools',
        tools: fsWrite.slice(0, 20),
        servers: fsServers,
        broad_roots: broadRoots.slice(0, 10),
      },
      capabilities: ['filesystem_write', 'filesystem_read'],
    });
  else if (fsRead.length)
    add(ctx, 'R18', {
      severity: 'medium',
      title: 'Read-only filesystem access',
      description: `Read-only file access via ${fsRead.slice(0, 5).join(', ')}.`,
      evidence: { path: 'tools', tools: fsRead.slice(0, 20) },
      capabilities: ['filesystem_read'],
    });
  if (net.length || netServers.length || pay.length)
    add(ctx, 'R19', {
      confidence: net.length || pay.length ? 1 : 0.6,
      description: `Network egress${pay.length ? ' / payments' : ''} via ${[...net, ...pay, ...netServers].slice(0, 5).join(', ')}.`,
      evidence: { path: 'tools', tools: uniq([...net, ...pay]).slice(0, 20), servers: netServers },
      capabilities: uniq(['network_egress', ...(pay.length ? ['payments'] : [])]),
    });
  if (unannotated.length)
    add(ctx, 'R26', {
      description: `${unannotated.length} tool(s) have no annotations (defaults: destructive, open-world).`,
      evidence: { path: 'tools[].annotations', tools: unannotated.slice(0, 30), count: unannotated.length },
    });
  const chains = ctx.raw ? uniq([...ctx.raw.matchAll(CODE_CHAINS)].map((m) => m[1] ?? '')) : [];
  if (chains.length)
    add(ctx, 'R27', {
      confidence:
        ctx.input.asset_type === 'agent' || ctx.input.asset_type === 'package' || ctx.input.asset_type === 'application'
          ? 1
          : 0.6,
      description: `References code-executing chains: ${chains.join(', ')}.`,
      evidence: { path: 'raw_manifest', chains },
      capabilities: ['code_execution'],
    });
}

const base = (c: string): string => c.slice(Math.max(c.lastIndexOf('/'), c.lastIndexOf('\\')) + 1);

function serverRules(ctx: Ctx, s: McpServerEntry): void {
  const cmd = (s.command ?? '').toLowerCase();
  const args = s.args;
  // R21 unpinned launchers
  if (LAUNCHERS.test(cmd)) {
    const pkgArg = args.find((a) => !a.startsWith('-'));
    const yes = args.includes('-y') || args.includes('--yes');
    const pinned = (!!pkgArg && /^(@[^/]+\/)?[^@]+@\d[\w.+-]*$/.test(pkgArg)) || (!!pkgArg && /==\d/.test(pkgArg));
    const latest = !!pkgArg && /@latest$/.test(pkgArg);
    if (!pinned || latest)
      add(ctx, 'R21', {
        description: `${cmd} runs ${pkgArg ?? 'a package'}${latest ? ' at @latest' : ' without a pinned version'}${yes ? ' (auto-confirm -y)' : ''}.`,
        evidence: { path: `${s.path}.args`, command: cmd, package: pkgArg ?? null, auto_confirm: yes },
      });
  } else if (/^uv(?:\.exe)?$/.test(base(cmd)) && args.includes('--with')) {
    // `uv run --with <pkg>` installs <pkg> at whatever version is published at launch (uv docs "Running scripts")
    const withs = args.filter((a, i) => args[i - 1] === '--with' && !/(?:==|@)\d/.test(a));
    if (withs.length)
      add(ctx, 'R21', {
        description: `uv run --with ${withs.slice(0, 3).join(', ')} installs without a pinned version.`,
        evidence: { path: `${s.path}.args`, command: cmd, packages: withs.slice(0, 20) },
      });
  } else if (s.registry && !s.url) {
    if (!s.version || /^latest$/i.test(s.version))
      add(ctx, 'R21', {
        description: `Package ${s.identifier ?? s.name} has no concrete version.`,
        evidence: { path: `${s.path}.version`, version: s.version },
      });
  }
  if (cmd === 'docker' || cmd === 'podman' || s.registry === 'oci') {
    const image =
      s.registry === 'oci'
        ? s.identifier
        : args.find(
            (a, i) =>
              i > 0 &&
              !a.startsWith('-') &&
              args[i - 1] !== '-e' &&
              args[i - 1] !== '-v' &&
              args[i - 1] !== '--env' &&
              args[i - 1] !== '--mount' &&
              args[i - 1] !== '--name' &&
              args[i - 1] !== '--network' &&
              /^[\w.\-/:@]+$/.test(a) &&
              a !== 'run',
          );
    if (
      image &&
      !image.includes('@sha256:') &&
      (!/:[\w.-]+$/.test(image.replace(/^[^/]*:\d+\//, '')) || /:latest$/.test(image))
    ) {
      add(ctx, 'R21', {
        description: `Container image ${image} is not pinned by tag or digest.`,
        evidence: { path: `${s.path}.args`, image },
      });
    }
    const joined = args.join(' ');
    const priv = args.filter(
      (a, i) =>
        PRIV_ARGS.test(a) ||
        ((a === '--network' || a === '--net' || a === '--pid') && args[i + 1] === 'host') ||
        (/^(-v|--volume|--mount)$/.test(args[i - 1] ?? '') && (a.includes('docker.sock') || HOME_MOUNT.test(a))),
    );
    if (priv.length || /docker\.sock/.test(joined))
      add(ctx, 'R24', {
        description: `Container runs with ${uniq(priv).slice(0, 5).join(', ')}.`,
        evidence: { path: `${s.path}.args`, flags: uniq(priv).slice(0, 10) },
        capabilities: ['host_access'],
      });
  }
  // R25 insecure remote
  if (s.url) {
    const m = /^http:\/\/([^/:]+)/i.exec(s.url);
    if (m && m[1] && !/^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1)$/i.test(m[1]))
      add(ctx, 'R25', {
        description: `Remote server over plain HTTP: ${s.url}.`,
        evidence: { path: `${s.path}.url`, url: s.url },
      });
    else if (
      s.transport === 'sse' &&
      !/^https?:\/\/(localhost|127\.|\[::1\])/i.test(s.url) &&
      !Object.keys(s.headers).some((h) => /auth|token|key/i.test(h))
    )
      add(ctx, 'R25', {
        confidence: 0.6,
        description: 'SSE transport without an authentication header.',
        evidence: { path: `${s.path}.headers`, url: s.url },
      });
  }
  if (args.some((a) => BIND_ALL.test(a)) || Object.values(s.env).some((v) => BIND_ALL.test(v)))
    add(ctx, 'R25', {
      confidence: 0.6,
      description: 'Server binds 0.0.0.0.',
      evidence: { path: s.path, bind: '0.0.0.0' },
    });
  // R20 credentials
  const credKeys = uniq([
    ...Object.keys(s.env).filter((k) => SECRET_KEY_NAME.test(k)),
    ...Object.keys(s.headers).filter((k) => /authorization|token|key/i.test(k)),
    ...s.secretEnv,
  ]);
  // kind and location of a literal credential, never its value nor a part of it (docs/security.md)
  const literal: Array<{ key: string; kind: string; location: string }> = [];
  for (const k of credKeys) {
    const inEnv = s.env[k] !== undefined;
    const v = s.env[k] ?? s.headers[k] ?? '';
    const bare = v.replace(/^Bearer\s+/i, '');
    if (!PLACEHOLDER_VALUE.test(bare) && bare.length >= 12 && /[A-Za-z]/.test(bare) && /\d/.test(bare))
      literal.push({
        key: k,
        kind: secretKind(bare) ?? 'credential',
        location: `${s.path}.${inEnv ? 'env' : 'headers'}.${k}`,
      });
  }
  if (literal.length)
    add(ctx, 'R20', {
      severity: 'high',
      description: `Literal credential value(s) in ${s.name} config: ${literal.map((l) => l.key).join(', ')}.`,
      evidence: { path: `${s.path}.env`, keys: literal },
      capabilities: ['credential_access'],
    });
  else if (credKeys.length)
    add(ctx, 'R20', {
      description: `Server ${s.name} receives credentials through ${credKeys.join(', ')}.`,
      evidence: { path: `${s.path}.env`, keys: credKeys },
      capabilities: ['credential_access'],
    });
}

// a catalogue hit that is a placeholder (ghp_xxxxxxxx…, sk-your-key-here) or has no digit is no leak
const PLACEHOLDER_TOKEN = /x{6}|0{8}|your|example/i;
function plausibleToken(kind: string, token: string): boolean {
  if (kind === 'private_key') return true;
  return !PLACEHOLDER_TOKEN.test(token) && /\d/.test(token) && /[A-Za-z]/.test(token);
}

/** Well-known tokens in the raw manifest: reported by kind and line/column, never by value. */
function secretScan(ctx: Ctx): void {
  if (!ctx.raw) return;
  const hits: Array<{ kind: string; line: number; column: number }> = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const h of findSecrets(ctx.raw)) {
    if (hits.length >= 10) break;
    if (!plausibleToken(h.kind, ctx.raw.slice(h.start, Math.min(h.end, h.start + 512)))) continue;
    for (; scanned < h.start; scanned++)
      if (ctx.raw.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    hits.push({ kind: h.kind, line, column: h.start - lineStart + 1 });
  }
  if (hits.length && !ctx.out.some((f) => f.rule_id === 'R20' && f.severity === 'high')) {
    add(ctx, 'R20', {
      severity: 'high',
      title: 'Secret exposed in manifest',
      description: `${hits.length} well-known token pattern(s) found in the manifest (${uniq(hits.map((h) => h.kind)).join(', ')}).`,
      evidence: { path: 'raw_manifest', secrets: hits },
      capabilities: ['credential_access'],
    });
  }
}

function dependencyRules(ctx: Ctx): void {
  const { p, input } = ctx;
  const deps = [...p.dependencies];
  const selfName = input.name ?? p.name;
  const selfVersion = input.version ?? p.version;
  const eco =
    p.kind === 'npm_package'
      ? 'npm'
      : p.kind === 'pyproject'
        ? 'pypi'
        : input.asset_type === 'package' || input.asset_type === 'mcp_server'
          ? /^@|\//.test(selfName ?? '')
            ? 'npm'
            : 'pypi'
          : null;
  if (selfName && selfVersion && eco)
    deps.push({
      ecosystem: eco,
      name: eco === 'pypi' ? selfName.toLowerCase() : selfName,
      spec: eco === 'pypi' ? `==${selfVersion}` : selfVersion,
      path: 'version',
    });
  if (selfName && selfVersion && /ollama/i.test(selfName) && /^v?\d/.test(selfVersion))
    deps.push({
      ecosystem: 'go',
      name: 'github.com/ollama/ollama',
      spec: selfVersion.replace(/^v/, ''),
      path: 'version',
    });
  for (const m of matchAdvisories(deps)) {
    const a = m.advisory;
    const onDependency = m.dependency.path !== 'version';
    add(ctx, 'R23', {
      // a dependency's advisory is capped at high (and counts at 0.6 below): see the confidence note
      severity: onDependency && a.severity === 'critical' ? 'high' : a.severity,
      title: `Known vulnerable version: ${a.package} (${a.id})`,
      description: `${m.dependency.name} ${m.dependency.spec} is inside ${a.affected} of ${a.id}: ${a.summary}${a.fixed ? ` Fixed in ${a.fixed}.` : ''}${a.verification === 'primary' ? '' : ' (advisory from secondary sources)'}`,
      evidence: {
        path: m.dependency.path,
        package: m.dependency.name,
        spec: m.dependency.spec,
        affected: a.affected,
        fixed: a.fixed,
        advisory_source: a.source,
        verification: a.verification,
        aliases: a.aliases,
      },
      cve_ids: [a.id],
      // the version match is exact, but an advisory that rests on secondary sources (ai-cves.json `verification`)
      // is not confirmed data: it keeps most of its weight and does not trigger the confirmed-severity floor
      // issue 18 item 3, checked against the corpus (c044, c048, c051, c093, c095: a reviewer rates an old pin of a
      // vulnerable library medium): a vulnerable *dependency* is exposure whose reachability is unknown (the CVE needs
      // its code path and untrusted input), so it is capped at high and counts at DEPENDENCY_ADVISORY_CONFIDENCE (one band lower: medium); the asset
      // itself at a vulnerable version (path `version`) keeps the advisory's full weight
      confidence: Math.min(
        a.verification === 'primary' ? 1 : SECONDARY_ADVISORY_CONFIDENCE,
        onDependency ? DEPENDENCY_ADVISORY_CONFIDENCE : 1,
      ),
    });
  }
  const ranged = p.dependencies.filter((d) => !isPinned(d.ecosystem, d.spec));
  if (ranged.length && (p.kind === 'npm_package' || p.kind === 'pyproject' || p.kind === 'requirements')) {
    add(ctx, 'R22', {
      description: `${ranged.length} of ${p.dependencies.length} dependencies use version ranges.`,
      evidence: {
        path: 'dependencies',
        dependencies: ranged.slice(0, 30).map((d) => `${d.name}${d.ecosystem === 'npm' ? '@' : ''}${d.spec || '*'}`),
        count: ranged.length,
      },
    });
  } else if (p.dependencies.length && ranged.length === 0)
    add(ctx, 'R00', {
      description: 'All dependencies are pinned.',
      evidence: { path: 'dependencies', count: p.dependencies.length },
    });
  for (const [k, v] of Object.entries(p.scripts)) {
    if (/^(preinstall|install|postinstall)$/.test(k) && /curl|wget|node -e|bash|sh -c|powershell/i.test(v))
      add(ctx, 'R17', {
        confidence: 0.6,
        description: `npm ${k} script runs ${truncate(v, 80)}.`,
        evidence: { path: `scripts.${k}`, script: truncate(v, 200) },
        capabilities: ['shell_exec'],
      });
  }
}

function modelfileRules(ctx: Ctx): void {
  const mf = ctx.p.modelfile;
  if (!mf || !mf.from) return;
  const f = mf.from;
  if (!/[\\/]|\.gguf$/i.test(f) && (!f.includes(':') || /:latest$/i.test(f)))
    add(ctx, 'R21', {
      description: `Modelfile FROM ${f} is not pinned to a tag.`,
      evidence: { path: 'FROM', from: f },
    });
}

/** Run every rule over the parsed manifest. Order of output is deterministic. */
export function evaluateRules(input: EnrichmentInput, p: ParsedManifest, publisher: string | null): FindingDraft[] {
  const ctx: Ctx = {
    input,
    p,
    raw: typeof input.raw_manifest === 'string' ? input.raw_manifest : '',
    publisher,
    out: [],
  };
  if (p.parse_errors.length)
    add(ctx, 'manifest_unparseable', {
      description: `Manifest could not be fully parsed: ${truncate(p.parse_errors[0] ?? '', 160)}`,
      evidence: { path: 'raw_manifest', errors: p.parse_errors.slice(0, 5).map((e) => truncate(e, 200)) },
    });
  if (p.truncated.length)
    add(ctx, 'analysis_truncated', {
      description: `Analysis limits cut ${p.truncated.map((t) => `${t.what} (${t.kept} of ${t.total} kept)`).join(', ')}.`,
      evidence: { path: 'raw_manifest', truncated: p.truncated },
    });
  serializationRules(ctx);
  licenseRules(ctx);
  provenanceRules(ctx);
  capabilityRules(ctx);
  for (const s of p.servers) serverRules(ctx, s);
  secretScan(ctx);
  dependencyRules(ctx);
  modelfileRules(ctx);
  formatRules(ctx);
  return ctx.out;
}
