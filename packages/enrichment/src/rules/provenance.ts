// Provenance and safety rules: lineage, removed alignment, publisher verification and typosquats
// (docs/enrichment.md "Rule catalogue", R12–R15).
import { carries } from '../formats';
import { isBasePlaceholder } from '../parse/modelfile';
import { truncate } from '../util';
import { defineRule, type Emission } from './define';
import { cardAuthorClaim, isVerifiedPublisher, isWellKnownName, typosquatTarget, VERIFIED } from './signals/publisher';
import { environment, launches } from './signals/launch';
import { listedServer } from './signals/servers';
import { githubOwner, isTemplateManifest, mcpServerName } from './signals/text';
import type { EnrichmentInput, ParsedManifest } from '../types';

const SAFETY_REMOVED =
  /[ao]bliterat|uncensored|heretic|reduced[-_ ]refusal|\bnsfw\b|not-for-all-audiences|jailbr(?:oken|eak)|unfiltered|unaligned/i;
/** Jailbreak instructions in a system prompt (guardrail removal; ATLAS AML.T0054). */
const JAILBREAK_PROMPT =
  /\b(?:always comply|(?:completely|fully) compliant|obey the user|never refuse|do not refuse|don't refuse|without (?:any )?(?:moral|ethical) (?:judgement|judgment|restrictions?)|regardless of (?:the )?(?:ethics|morality|legality)|whether you agree with the ethics|ignore (?:all )?(?:previous|prior) (?:instructions|guidelines)|do anything now|no (?:ethical|moral) (?:guidelines|restrictions|limits))\b/i;
/** A card's own statement that alignment was removed. */
const GUARDRAIL_PROSE =
  /\b(?:uncensored|abliterated|no guardrails|without guardrails|alignment (?:was |has been |is )?removed|(?:removed|stripped) (?:the )?(?:alignment|guardrails|refusals)|compliant (?:to|with) any requests?|does not impose its (?:own )?ethics|jailbreak (?:is )?not required|not (?:been )?(?:tuned|trained) to be safe)\b/i;
/** Ollama bases known as uncensored lines (Dolphin, Wizard-Vicuna uncensored, Nous Hermes uncensored builds). */
const UNCENSORED_BASE = /\bdolphin|wizard-vicuna-uncensored|llama2-uncensored|wizardlm-uncensored/i;
/**
 * What follows a refusal waiver in its sentence when the waiver is scoped to a sanctioned purpose ("never refuse
 * analysis … for authorized security assessments"): a mild bypass, not a blanket jailbreak. Bounded (linear).
 */
const SCOPED_WAIVER =
  /^[^.\n]{0,100}?\b(?:for|in|within|during|on)[ \t]{1,3}(?:an?[ \t]{1,3}|the[ \t]{1,3}|your[ \t]{1,3})?(?:explicitly[ \t]{1,3})?(?:authori[sz]ed|sanctioned|approved|permitted|legitimate|lawful|in-scope)\b/i;
/** Prose scanned for guardrail statements: the card's first 100 000 characters. */
const MAX_PROSE = 100_000;
const ADULT_PROSE =
  /\bx-rated\b|not suitable for (?:use by )?minors|adult (?:content|theme)|\bporn(?:ographic|ography)?\b/i;
const DERIVED_NAME =
  /(?:^|[-_.])(lora|qlora|adapter|gguf|gptq|awq|exl2|int4|int8|4bit|8bit|quantized|merged?|finetuned?|ft|dpo|sft)(?:$|[-_.])/i;
/** A Modelfile FROM that is a local file (a path or a weights file), not a registry model. */
const LOCAL_WEIGHTS = /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)|\.(?:gguf|bin|safetensors)$/i;
const FAMILY =
  /(llama|mistral|mixtral|gemma|qwen|phi|falcon|gpt2|gpt-neox|bert|roberta|t5|bart|chatglm|bloom|opt|whisper|stable-diffusion)/i;

/** Every refusal waiver in a SYSTEM prompt (at most 50), and whether the rest of its sentence scopes it. */
function refusalWaivers(system: string): Array<{ text: string; scoped: boolean }> {
  const out: Array<{ text: string; scoped: boolean }> = [];
  let from = 0;
  while (out.length < 50 && from < system.length) {
    const m = JAILBREAK_PROMPT.exec(system.slice(from));
    if (!m) break;
    const end = from + m.index + m[0].length;
    out.push({ text: m[0], scoped: SCOPED_WAIVER.test(system.slice(end, end + 120)) });
    from = end;
  }
  return out;
}

const MODEL_ID = /^[\w.-]{1,96}\/[\w.-]{1,96}$/;
/** Hub model ids a manifest serves: `*MODEL*` environment values and `--model` arguments of its launch commands. */
function servedModels(p: ParsedManifest, raw: string): string[] {
  const out = environment(p, raw)
    .filter((e) => e.key.includes('MODEL') && MODEL_ID.test(e.value))
    .map((e) => e.value);
  for (const l of launches(p))
    l.tokens.forEach((t, i) => {
      const v = t.startsWith('--model=') ? t.slice(8) : l.tokens[i - 1] === '--model' ? t : '';
      if (MODEL_ID.test(v)) out.push(v);
    });
  return out.slice(0, 50);
}

/** The asset's name as declared, and its last path segment. */
function names(input: EnrichmentInput, p: ParsedManifest): { name: string; short: string } {
  const name = input.name ?? p.name ?? '';
  return { name, short: name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name };
}

export const R12 = defineRule({
  id: 'R12',
  title: 'Lineage missing or inconsistent',
  severity: 'medium',
  weight: 15,
  category: 'provenance',
  rationale:
    'Derived models (LoRA, quantized, fine-tuned) without base_model, or name vs config disagreeing, hide provenance (masquerading).',
  remediation: 'Declare base_model and base_model_relation in the model card.',
  attack_techniques: ['AML.T0074'],
  references: ['§3 R12: derived name/tags without base_model, name vs config model_type'],
  evaluate({ p, input }) {
    const { short } = names(input, p);
    const isModel = input.asset_type === 'model';
    const out: Emission[] = [];
    // only a format that can declare a base model (a card's base_model, a Modelfile's FROM) can be missing one: a
    // weights index or a file listing never says, whatever the repository is called
    if (isModel && p.base_models.length === 0 && carries(p.kind, 'lineage')) {
      const derived =
        DERIVED_NAME.test(short) ||
        p.tags.some((t) => /^(lora|peft|merge|mergekit|gguf|gptq|awq|quantized|adapter)$/i.test(t)) ||
        /^peft$/i.test(p.library_name ?? '');
      if (derived)
        out.push({
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
      )
        out.push({
          confidence: 0.6,
          description: `Name suggests ${nf[1]} but config model_type is ${p.config.model_type}.`,
          evidence: { path: 'model_type', name: short, model_type: p.config.model_type },
        });
    }
    // a Modelfile built FROM a local weights file names no base model: whose weights they are is unknown
    const from = p.modelfile?.from ?? '';
    if (LOCAL_WEIGHTS.test(from) && p.base_models.length === 0)
      out.push({
        confidence: 0.6,
        description: `Modelfile FROM a local file (${truncate(from, 80)}): the base model is not named.`,
        evidence: { path: 'FROM', from: truncate(from, 200) },
      });
    // a template placeholder is filled in by whoever builds it: which model ships is not said here
    else if (from && isBasePlaceholder(from))
      out.push({
        confidence: 0.6,
        description: `Modelfile FROM a template placeholder (${truncate(from, 80)}): the base model is not named.`,
        evidence: { path: 'FROM', from: truncate(from, 200) },
      });
    return out;
  },
});

export const R13 = defineRule({
  id: 'R13',
  title: 'Safety alignment removed or NSFW model',
  severity: 'medium',
  weight: 15,
  category: 'safety',
  rationale: 'abliterated/uncensored/NSFW models have refusal behaviour removed.',
  remediation: 'Do not expose to end users without an external guardrail.',
  attack_techniques: ['AML.T0054'],
  references: ['§3 R13'],
  evaluate({ p, input, raw }) {
    const { name } = names(input, p);
    // a Modelfile whose SYSTEM prompt is a jailbreak ("always comply", "obey the user") removes the
    // guardrails for every user of the model: high, ATLAS AML.T0054 (LLM Jailbreak)
    const mf = p.modelfile;
    const system = mf?.system ?? '';
    const base = mf?.from ?? '';
    // a waiver scoped to authorised work keeps the model's refusals everywhere else; one blanket waiver anywhere in
    // the prompt still makes it a jailbreak
    const waivers = refusalWaivers(system);
    const jb = waivers.find((w) => !w.scoped);
    if (jb) {
      return [
        {
          severity: 'high',
          title: 'Jailbreak system prompt (guardrail removal)',
          description: `SYSTEM prompt instructs the model to "${truncate(jb.text, 60)}"${
            SAFETY_REMOVED.test(base) || UNCENSORED_BASE.test(base)
              ? ` on an uncensored base (${truncate(base, 60)})`
              : ''
          }: safety refusals are disabled for every user.`,
          evidence: { path: 'SYSTEM', match: truncate(jb.text, 120), from: truncate(base, 120) },
          attack_techniques: ['AML.T0054', 'AML.T0051'],
        },
      ];
    }
    // a Modelfile built FROM an abliterated or uncensored base inherits its removed refusals, whatever its own
    // SYSTEM prompt says: every user of the model gets the base's behaviour
    if (base && (SAFETY_REMOVED.test(base) || UNCENSORED_BASE.test(base)))
      return [
        {
          confidence: 0.8,
          description: `Modelfile FROM ${truncate(base, 80)}: a base with its safety alignment removed.`,
          evidence: { path: 'FROM', from: truncate(base, 200) },
        },
      ];
    // a container or notebook that serves a model whose id says its refusals were removed (`MODEL_REPO=…-abliterated`,
    // `vllm serve --model …-uncensored`) hands that model to every client of the server
    const served = servedModels(p, raw).find((m) => SAFETY_REMOVED.test(m) || UNCENSORED_BASE.test(m));
    if (served)
      return [
        {
          confidence: 0.8,
          description: `Serves ${truncate(served, 80)}, a model with its safety alignment removed.`,
          evidence: { path: 'environment', model: truncate(served, 200) },
        },
      ];
    if (SAFETY_REMOVED.test(name) || p.tags.some((t) => SAFETY_REMOVED.test(t)))
      return [
        {
          // the publisher's own name or tag says so: confident enough for the medium band (was 0.6)
          confidence: 0.8,
          description: 'Name or tags indicate removed safety alignment or NSFW content.',
          evidence: { path: 'name/tags', name, tags: p.tags.filter((t) => SAFETY_REMOVED.test(t)) },
        },
      ];
    const prose = p.body ? GUARDRAIL_PROSE.exec(p.body.slice(0, MAX_PROSE)) : null;
    if (prose)
      return [
        {
          confidence: 0.8,
          description: `Model card states its safety alignment is removed ("${truncate(prose[0], 60)}").`,
          evidence: { path: 'body', match: truncate(prose[0], 120) },
        },
      ];
    if (waivers[0])
      return [
        {
          severity: 'low',
          title: 'Refusals waived for a stated purpose',
          description: `SYSTEM prompt waives refusals ("${truncate(waivers[0].text, 60)}") for work it calls authorised: a scoped guardrail bypass.`,
          evidence: { path: 'SYSTEM', match: truncate(waivers[0].text, 120), scoped: true },
          attack_techniques: ['AML.T0054'],
        },
      ];
    if (p.body && ADULT_PROSE.test(p.body)) {
      const m = ADULT_PROSE.exec(p.body);
      return [
        {
          confidence: 0.3,
          description: 'Model card describes adult/NSFW output.',
          evidence: { path: 'body', match: m ? m[0] : null },
        },
      ];
    }
    return [];
  },
});

export const R14 = defineRule({
  id: 'R14',
  title: 'Publisher unverifiable or re-upload',
  severity: 'medium',
  weight: 15,
  category: 'provenance',
  rationale:
    'Namespace does not match the repository owner, placeholder names, or a vendor model re-uploaded by another account.',
  remediation: "Use the vendor's official repository; verify namespace ownership.",
  attack_techniques: ['AML.T0111', 'AML.T0074'],
  references: ['§3 R14'],
  evaluate({ p, input, publisher }) {
    const out: Emission[] = [];
    const mcpName = mcpServerName(p);
    if (mcpName && isTemplateManifest(p)) {
      out.push({
        // a template is not a release: the placeholder is worth fixing before publishing, not a risk to users, so
        // it is recorded without weight (docs/enrichment.md R14)
        severity: 'informational',
        description: `Server name "${mcpName}" is a placeholder.`,
        evidence: { path: 'name', name: mcpName },
      });
    } else if (mcpName) {
      const m = /^io\.github\.([^/]+)\//i.exec(mcpName);
      const repoOwner = p.repository_url ? githubOwner(p.repository_url) : null;
      if (m && m[1] && repoOwner && m[1].toLowerCase() !== repoOwner.toLowerCase())
        out.push({
          description: `Namespace io.github.${m[1]} does not match repository owner ${repoOwner}.`,
          evidence: { path: 'name', namespace_owner: m[1], repository_owner: repoOwner },
        });
    }
    const nop = p.config?.name_or_path;
    if (nop && /^[\w.-]+\/[\w.-]+$/.test(nop) && publisher) {
      const origOrg = (nop.split('/')[0] ?? '').toLowerCase();
      if (origOrg !== publisher.toLowerCase() && VERIFIED.has(origOrg) && !VERIFIED.has(publisher.toLowerCase()))
        out.push({
          confidence: 0.6,
          description: `Re-upload: config says ${nop} but the publisher is ${publisher}.`,
          evidence: { path: '_name_or_path', name_or_path: nop, publisher },
        });
    }
    const shadowed = shadowedPackage(p, input);
    if (shadowed)
      out.push({
        confidence: 0.8,
        description: `Re-upload: the metadata is ${shadowed}'s, but the package is submitted as ${truncate(input.name ?? '', 80)}.`,
        evidence: { path: 'name', declares: shadowed, submitted: truncate(input.name ?? '', 200) },
      });
    const borrowed = borrowedAuthorship(p, input, publisher);
    if (borrowed)
      out.push({
        title: 'Authorship claimed for a vendor that does not publish it',
        description: `The package names ${borrowed.author} as its author, but it is published by ${borrowed.owners.join(', ')}.`,
        evidence: {
          path: borrowed.path,
          vendor: borrowed.vendor,
          author: borrowed.author,
          publishers: borrowed.owners,
        },
      });
    if (p.kind === 'hf_model_card' && p.body && publisher && !VERIFIED.has(publisher.toLowerCase())) {
      const claim = cardAuthorClaim(p.body, input.name ?? p.name ?? '', publisher);
      // A copy is low on its own (0.6: one band down); licence and safety findings carry the rest.
      if (claim)
        out.push({
          confidence: 0.6,
          description: `Re-upload: the card names ${claim.origin} as ${claim.how}, but the publisher is ${publisher}.`,
          evidence: { path: 'body', origin: claim.origin, match: truncate(claim.match, 120), publisher },
        });
    }
    return out;
  },
});

/**
 * Vendors a package's `authors` can name, and the GitHub/npm owners that publish for them (their own organisations;
 * Anthropic publishes the MCP reference servers under modelcontextprotocol).
 */
const VENDOR_AUTHORS: ReadonlyArray<{ vendor: string; author: RegExp; owners: readonly string[] }> = [
  {
    vendor: 'Anthropic',
    author: /\banthropic\b/i,
    owners: ['anthropics', 'anthropic', 'anthropic-ai', 'modelcontextprotocol'],
  },
  { vendor: 'OpenAI', author: /\bopenai\b/i, owners: ['openai'] },
  {
    vendor: 'Google',
    author: /\bgoogle\b/i,
    owners: ['google', 'googleapis', 'google-gemini', 'google-deepmind', 'googlecloudplatform', 'google-research'],
  },
  // Playwright is Microsoft's (npm scope @playwright, github.com/microsoft/playwright)
  { vendor: 'Microsoft', author: /\bmicrosoft\b/i, owners: ['microsoft', 'azure', 'azure-samples', 'playwright'] },
  { vendor: 'Hugging Face', author: /\bhugging ?face\b/i, owners: ['huggingface'] },
  {
    vendor: 'Meta',
    author: /\bmeta(?: platforms)?\b|\bfacebook\b/i,
    owners: ['meta-llama', 'facebook', 'facebookresearch', 'meta'],
  },
];

/** Who publishes a package, as far as the submission says: source URL and repository owners, the npm scope. */
function publishingOwners(p: ParsedManifest, input: EnrichmentInput, publisher: string | null): string[] {
  const out = [
    input.source_url ? githubOwner(input.source_url) : null,
    p.repository_url ? githubOwner(p.repository_url) : null,
    p.homepage ? githubOwner(p.homepage) : null,
    /^@([\w.-]+)\//.exec(input.name ?? p.name ?? '')?.[1] ?? null,
    publisher,
  ];
  const owners = out.filter((x): x is string => !!x).map((x) => x.toLowerCase());
  // nothing in the submission says who publishes it: a package a public listing knows is its listed publisher's
  // (src/data/known-servers.json), e.g. the reference servers' unscoped PyPI packages are modelcontextprotocol's
  if (!owners.length) {
    const listed = listedServer(p.name ?? input.name ?? '');
    if (listed) owners.push(listed.publisher.toLowerCase());
  }
  return owners;
}

/**
 * A description that claims a vendor made the package: "Official Anthropic MCP installer", "developed by OpenAI".
 * "for the OpenAI API" or "powered by OpenAI" say what it uses, not who made it, and are not claims; "not an official
 * Anthropic product" is a disclaimer. Bounded classes only (linear).
 */
const DESCRIPTION_CLAIM =
  /\b(?:official(?:ly)?|(?:made|developed|maintained|published|created|built|authored|written|released)[ \t]{1,3}by)[ \t]{1,3}(?:the[ \t]{1,3})?(anthropic|openai|microsoft|google|meta|hugging ?face)\b/i;
const USES_PRODUCT = /^[^.;,]{0,30}?\b(?:api|apis|sdk|client|library|cli|models?)\b/i;
const DISCLAIMER_BEFORE = /\b(?:not|never|no)[ \t]{1,3}(?:an?[ \t]{1,3}|the[ \t]{1,3})?$/i;

/** The vendor a package's description claims as its maker, or null. */
function descriptionClaim(description: string | null): string | null {
  if (!description) return null;
  const text = description.slice(0, 2000);
  const m = DESCRIPTION_CLAIM.exec(text);
  if (!m || DISCLAIMER_BEFORE.test(text.slice(Math.max(0, m.index - 20), m.index))) return null;
  // "the official Google Calendar API", "official OpenAI SDK": the vendor's product it uses, not its maker
  const after = m.index + m[0].length;
  if (USES_PRODUCT.test(text.slice(after, after + 40))) return null;
  return m[0];
}

/**
 * A package whose `authors` name a vendor while whoever publishes it is not that vendor: a borrowed name that lends a
 * third-party package the vendor's trust (docs/enrichment.md "Launch semantics", supply chain). Silent when nothing
 * says who publishes it.
 */
export function borrowedAuthorship(
  p: ParsedManifest,
  input: EnrichmentInput,
  publisher: string | null,
): { vendor: string; author: string; owners: string[]; path: string } | null {
  const claim = descriptionClaim(p.description);
  if (!p.authors.length && !claim) return null;
  const owners = publishingOwners(p, input, publisher);
  // vendors publish their npm packages under their own scopes (@anthropic-ai, @modelcontextprotocol, @openai…): an
  // npm package outside them is someone else's, even when nothing else says whose
  if (!owners.length && p.kind === 'npm_package') owners.push('(an unscoped npm package)');
  if (!owners.length) return null;
  const said = [
    ...p.authors.slice(0, 20).map((a) => ({ a, path: 'authors' })),
    ...(claim ? [{ a: claim, path: 'description' }] : []),
  ];
  for (const { a, path } of said)
    for (const v of VENDOR_AUTHORS)
      if (v.author.test(a) && !owners.some((o) => v.owners.includes(o)))
        return { vendor: v.vendor, author: truncate(a, 80), owners: [...new Set(owners)], path };
  return null;
}

/** What a repository adds to its package's name (`openai-python`, `anthropic-sdk-typescript`): not another name. */
const REPO_AFFIX = /^(?:python|py|sdk|js|ts|typescript|node|nodejs|client|lib|api|core|src|main|master|repo)$/;
const nameTokens = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[-_.\s]+/)
    .filter(Boolean);

/**
 * The well-known package a package's own metadata declares itself to be while it is submitted under another name
 * (`Myself-openai1` whose setup.cfg says `name = openai`): installing it puts the real package's name and import
 * path in place of the real one. Only a package's own metadata (a format carrying both a licence and dependencies)
 * declares a name; a verified owner (`openai/openai-python`) or a repository affix is the vendor's own source.
 */
function shadowedPackage(p: ParsedManifest, input: EnrichmentInput): string | null {
  const declared = p.name ?? '';
  const submitted = input.name ?? '';
  if (!declared || !submitted || !isWellKnownName(declared)) return null;
  if (!carries(p.kind, 'licence') || !carries(p.kind, 'dependencies')) return null;
  const slash = submitted.lastIndexOf('/');
  const owner = slash > 0 ? submitted.slice(0, slash).replace(/^@/, '') : null;
  if (owner && isVerifiedPublisher(owner)) return null;
  const own = new Set(nameTokens(declared));
  const extra = nameTokens(slash >= 0 ? submitted.slice(slash + 1) : submitted).filter((t) => !own.has(t));
  if (extra.every((t) => REPO_AFFIX.test(t))) return null;
  return declared;
}

export const R15 = defineRule({
  id: 'R15',
  title: 'Typosquat-like name',
  severity: 'high',
  weight: 35,
  category: 'supply_chain',
  rationale:
    "Name within Damerau–Levenshtein 2 (or a homoglyph) of a well-known package/publisher, or a package whose own metadata declares a well-known package's name while it is published under another.",
  remediation: 'Check the exact name and publisher; use the canonical package.',
  attack_techniques: ['AML.T0011.001', 'AML.T0060'],
  references: ['§3 R15'],
  evaluate({ p, input, publisher }) {
    // typosquats on the asset name, its publisher, and dependency names
    const { name, short } = names(input, p);
    const out: Emission[] = [];
    const seen = new Set<string>();
    const check = (candidate: string, path: string): void => {
      if (!candidate || seen.has(candidate)) return;
      seen.add(candidate);
      const t = typosquatTarget(candidate);
      if (t)
        out.push({
          confidence: 0.6,
          description: `"${candidate}" resembles "${t.target}"${t.homoglyph ? ' (homoglyph)' : ` (edit distance ${t.distance})`}.`,
          evidence: { path, name: candidate, resembles: t.target, distance: t.distance, homoglyph: t.homoglyph },
        });
    };
    if (name) {
      check(name.toLowerCase(), 'name');
      if (short !== name) check(short.toLowerCase(), 'name');
    }
    if (publisher) check(publisher.toLowerCase(), 'publisher');
    for (const d of p.dependencies.slice(0, 200)) check(d.name.toLowerCase(), d.path);
    // not a look-alike name but the very name, declared by a package published under another one: a shadow
    const shadowed = shadowedPackage(p, input);
    if (shadowed)
      out.push({
        confidence: 0.8,
        title: 'Package declares a well-known package name it is not published under',
        description: `"${truncate(name, 80)}" declares itself as "${shadowed}": installing it installs ${shadowed}'s name over the real package.`,
        evidence: { path: 'name', name: truncate(name, 200), declares: shadowed },
      });
    return out;
  },
});
