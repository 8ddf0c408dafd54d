// R20: credentials an asset holds or hands to an agent — cloud and secret-store servers, credentials in MCP server
// configs, well-known tokens anywhere in the manifest, extension permissions that read sessions
// (docs/enrichment.md "Rule catalogue"; secrets are reported by kind and location only, docs/security.md).
import { isBroadHostPattern } from '../formats';
import { findSecrets, secretKind } from '@risk/redaction';
import type { McpServerEntry } from '../types';
import { uniq } from '../util';
import { defineRule, type Emission, type RuleContext } from './define';
import { argSecrets, environment, launches, literalSecret, tokenRedirects } from './signals/launch';
import { isTemplateManifest } from './signals/text';
import { toolCapabilities, toolSignals } from './signals/tools';

const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|_KEY$|^KEY$/i;
/** Settings named after an auth service rather than holding a credential (`AUTHZEN_PDP_URL`, `AUTH_TIMEOUT`). */
const SETTING_NAME = /_(?:URL|URI|ENDPOINT|HOST|PORT|TIMEOUT|ENABLED|DISABLED|MODE|TYPE)$/i;
const SECRET_KEY_NAME = { test: (k: string): boolean => SECRET_NAME.test(k) && !SETTING_NAME.test(k) };
/** What a server says it is for when that is holding or handing out secrets (a vault, a password manager). */
const SECRET_STORE_PURPOSE = /\b(?:vaults?|secrets? (?:manager|store)|password manager|key ?chain|credential store)\b/i;
// a placeholder value: an empty, `${VAR}`, `<…>` or `{{…}}` shape (anchored), or a placeholder word anywhere; two
// patterns (one alternation of both was reported polynomial by the fuzzer under load)
const PLACEHOLDER_SHAPE = /^\s*$|^\$\{?[\w:.-]+\}?$|^<.*>$|^\{\{.*\}\}$/;
const PLACEHOLDER_WORD = /your|xxx|\.\.\.|changeme|placeholder|example|replace|insert|\*\*\*/i;
/** VS Code's run-time forms: an input prompt or the user's own environment (code.visualstudio.com/docs/reference/variables-reference). */
const RUNTIME_PROMPT = /^\$\{(?:input|env):[\w.-]{1,100}\}$/;
const isPlaceholderValue = (v: string): boolean => PLACEHOLDER_SHAPE.test(v) || PLACEHOLDER_WORD.test(v);
/**
 * A redaction marker standing where a secret was: `[REDACTED]` as @risk/redaction writes it, `REDACTED`,
 * `<REDACTED>`, `REDACTED_TOKEN`. The scanner redacts every secret-bearing value before it submits a manifest
 * (docs/scanner.md "Redaction"), so a marker under a secret-named key is the trace of a literal secret in the file
 * as committed, not a placeholder someone is asked to fill in.
 */
const REDACTION_MARKER = /^[[<(*]{0,3}REDACTED(?:[_-][A-Z0-9]{1,20}){0,4}[\]>)*]{0,3}$/i;
const redactedSecret = (v: string): boolean => REDACTION_MARKER.test(v.trim());
// a catalogue hit that is a placeholder (ghp_xxxxxxxx…, sk-your-key-here) or has no digit is no leak
const PLACEHOLDER_TOKEN = /x{6}|0{8}|your|example/i;
/**
 * Permissions that read credentials or sessions: cookies, request observation or interception (`webRequest` sees the
 * request headers — Authorization, and Cookie with `extraHeaders` — of every host the extension may access), the
 * debugger, native hosts, the proxy.
 */
const CREDENTIAL_PERMISSIONS = new Set([
  'cookies',
  'webRequest',
  'webRequestBlocking',
  'debugger',
  'nativeMessaging',
  'proxy',
]);

function plausibleToken(kind: string, token: string): boolean {
  if (kind === 'private_key') return true;
  return !PLACEHOLDER_TOKEN.test(token) && /\d/.test(token) && /[A-Za-z]/.test(token);
}

/** Credentials an MCP server entry receives: literal values (high) or the names they are passed under. */
function serverCredentials(s: McpServerEntry, purpose: string): Emission | null {
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
    if (
      redactedSecret(bare) ||
      (!isPlaceholderValue(bare) && bare.length >= 12 && /[A-Za-z]/.test(bare) && /\d/.test(bare))
    )
      literal.push({
        key: k,
        kind: secretKind(bare) ?? 'credential',
        location: `${s.path}.${inEnv ? 'env' : 'headers'}.${k}`,
      });
  }
  if (literal.length)
    return {
      severity: 'high',
      description: `Literal credential value(s) in ${s.name} config: ${literal.map((l) => l.key).join(', ')}.`,
      evidence: { path: `${s.path}.env`, keys: literal },
      capabilities: ['credential_access'],
    };
  // every credential value is requested from the user when the server starts (VS Code `${input:…}` prompts,
  // `${env:…}`): nothing is leaked — never an exposed secret — though the server still acts with the credential
  const values = credKeys.map((k) => s.env[k] ?? (s.headers[k] ?? '').replace(/^Bearer\s+/i, ''));
  if (credKeys.length && values.every((v) => RUNTIME_PROMPT.test(v.trim())))
    return {
      title: 'Credential requested at run time',
      description: `Server ${s.name} asks for ${credKeys.join(', ')} when it starts (not stored in the manifest).`,
      evidence: { path: `${s.path}.env`, keys: credKeys },
      capabilities: ['credential_access'],
    };
  // a registry server whose every credential is declared optional runs without them: an API key for its own
  // service, opt-in, is recorded without weight (the user decides to hand it over, as with any API client) unless
  // the server exists to hold or hand out secrets
  const optional = new Set(s.optionalEnv ?? []);
  if (credKeys.length && credKeys.every((k) => optional.has(k)) && !SECRET_STORE_PURPOSE.test(purpose))
    return {
      severity: 'informational',
      title: 'Optional credential',
      description: `Server ${s.name} can be given ${credKeys.join(', ')}; it runs without ${credKeys.length > 1 ? 'them' : 'it'}.`,
      evidence: { path: `${s.path}.env`, keys: credKeys, optional: true },
      capabilities: ['credential_access'],
    };
  if (credKeys.length)
    return {
      description: `Server ${s.name} receives credentials through ${credKeys.join(', ')}.`,
      evidence: { path: `${s.path}.env`, keys: credKeys },
      capabilities: ['credential_access'],
    };
  return null;
}

const DOCKER_ARG = /^\s{0,20}ARG\s{1,10}([A-Za-z_]\w{0,100})(?:=(\S{0,500}))?/i;
const ARG_REFERENCE = /^\$\{?([A-Za-z_]\w{0,100})\}?$/;

/**
 * Credentials a Dockerfile bakes into its image. Build arguments and `ENV` values persist in the image's configuration
 * and history, readable by anyone who pulls it ("Build secrets", docs.docker.com/build/building/secrets): an `ENV` that
 * copies a build argument into a secret-named variable persists whatever the builder passed (medium); a literal value
 * in a secret-named `ENV` or `ARG` default is leaked outright (high). Reported by name, never by value.
 */
function imageSecrets(ctx: RuleContext): Emission | null {
  if (ctx.p.kind !== 'dockerfile' || !ctx.raw) return null;
  const args = new Map<string, string>();
  for (const line of ctx.raw.split('\n').slice(0, 20000)) {
    const m = DOCKER_ARG.exec(line);
    if (m?.[1]) args.set(m[1], m[2] ?? '');
  }
  const literal: string[] = [];
  const fromArg: string[] = [];
  for (const [name, value] of args)
    if (SECRET_KEY_NAME.test(name) && (literalSecret(value) || redactedSecret(value))) literal.push(`ARG ${name}`);
  for (const e of environment(ctx.p, ctx.raw)) {
    if (e.key === 'ARG' || !SECRET_KEY_NAME.test(e.key)) continue;
    const ref = ARG_REFERENCE.exec(e.value.trim())?.[1];
    if (ref && args.has(ref)) fromArg.push(e.key);
    else if (!ref && (literalSecret(e.value) || redactedSecret(e.value))) literal.push(`ENV ${e.key}`);
  }
  if (literal.length)
    return {
      severity: 'high',
      title: 'Secret written into the image',
      description: `Literal credential value(s) in ${uniq(literal).slice(0, 5).join(', ')}: anyone who pulls the image reads them.`,
      evidence: { path: 'ENV', keys: uniq(literal).slice(0, 10) },
      capabilities: ['credential_access'],
    };
  if (fromArg.length)
    return {
      title: 'Build secret persisted in the image',
      description: `${uniq(fromArg).slice(0, 5).join(', ')} copied from build arguments into ENV: the value passed at build time stays in the image configuration.`,
      evidence: { path: 'ENV', keys: uniq(fromArg).slice(0, 10) },
      capabilities: ['credential_access'],
    };
  return null;
}

/** Well-known tokens in the raw manifest: reported by kind and line/column, never by value. */
function exposedSecrets(ctx: RuleContext): Emission | null {
  if (!ctx.raw) return null;
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
  if (!hits.length) return null;
  return {
    severity: 'high',
    title: 'Secret exposed in manifest',
    description: `${hits.length} well-known token pattern(s) found in the manifest (${uniq(hits.map((h) => h.kind)).join(', ')}).`,
    evidence: { path: 'raw_manifest', secrets: hits },
    capabilities: ['credential_access'],
  };
}

export const R20 = defineRule({
  id: 'R20',
  title: 'Credential access or exposed secret',
  severity: 'medium',
  weight: 15,
  category: 'secrets',
  rationale:
    'Env keys like *TOKEN*/*SECRET*/*KEY* give the server credentials; a literal token in a manifest is leaked (high).',
  remediation: 'Move secrets to a secret store, rotate any leaked token, scope credentials minimally.',
  attack_techniques: ['AML.T0055', 'AML.T0083'],
  references: ['§3 R20 (+ well-known token patterns anywhere in the manifest)'],
  evaluate(ctx) {
    const { p } = ctx;
    const out: Emission[] = [];
    const { cloud } = toolSignals(ctx);
    if (cloud.length && !p.servers.some((s) => s.secretEnv.length > 0))
      out.push({
        confidence: 0.6,
        title: 'Cloud account or secret-store access',
        description: `Servers named for ${cloud.join(', ')} act with the account's credentials.`,
        evidence: { path: 'servers', systems: cloud },
        capabilities: ['credentials'],
      });
    // tools that read or change secrets (`get_secret`, `set_env`, `list_api_keys`) hand credentials to the agent
    const secretTools = p.tools
      .slice(0, 500)
      .filter((t) => toolCapabilities(t).includes('credentials'))
      .map((t) => t.name);
    if (secretTools.length)
      out.push({
        title: 'Tools that read or change secrets',
        description: `Tools that read or write credentials or environment secrets: ${secretTools.slice(0, 5).join(', ')}.`,
        evidence: { path: 'tools', tools: secretTools.slice(0, 20) },
        capabilities: ['credential_access'],
      });
    const template = isTemplateManifest(p);
    for (const s of p.servers) {
      const e = serverCredentials(s, `${p.name ?? ''} ${p.description ?? ''}`);
      // a literal secret is a leak even in a template; a declared credential there is an example of what the
      // finished server will ask for: recorded without weight (nothing is published or run from a template)
      if (e) out.push(template && e.severity !== 'high' ? { ...e, severity: 'informational' } : e);
    }
    // secrets written into launch arguments (`--password …`, `postgresql://user:pass@host`): as leaked as a literal env
    // value, and also visible in the process list (docs/enrichment.md "Launch semantics")
    const inArgs = launches(p).flatMap(argSecrets);
    if (inArgs.length)
      out.push({
        severity: 'high',
        title: 'Secret in launch arguments',
        description: `Literal secret(s) in command arguments: ${uniq(inArgs.map((a) => (a.kind === 'url_password' ? `password in a ${a.name} URL` : a.name))).join(', ')}.`,
        evidence: { path: inArgs[0]!.where, secrets: inArgs.slice(0, 10) },
        capabilities: ['credential_access'],
      });
    // a token passed while its endpoint (HF_ENDPOINT, OPENAI_BASE_URL, a proxy) points at another host: the token goes
    // to a party that did not issue it
    const redirects = tokenRedirects(environment(p, ctx.raw));
    if (redirects.length) {
      const endpoint = redirects.filter((r) => r.via === 'endpoint');
      const first = (endpoint[0] ?? redirects[0])!;
      out.push({
        // an endpoint override hands the token to that host; a proxy relays it (it sees it only over plain http or
        // when it intercepts TLS): one band lower
        severity: endpoint.length ? 'high' : 'medium',
        title: 'Token sent to a host that is not its issuer',
        description: `${first.issuer} token ${first.token_key} is sent to ${first.host} (${first.endpoint_key}).`,
        evidence: { path: 'env', redirects: redirects.slice(0, 10) },
        capabilities: ['credential_access', 'network_egress'],
      });
    }
    const baked = imageSecrets(ctx);
    if (baked) out.push(baked);
    // one high finding for a literal secret is enough: the token scan adds nothing to a literal already reported
    const exposed = out.some((f) => f.severity === 'high') ? null : exposedSecrets(ctx);
    if (exposed) out.push(exposed);
    const cred = p.extension ? p.extension.permissions.filter((x) => CREDENTIAL_PERMISSIONS.has(x)) : [];
    if (p.extension && cred.length) {
      const ext = p.extension;
      const broad = [...ext.host_permissions, ...ext.content_script_matches].some(isBroadHostPattern);
      // sessions of every site taken by an extension that says nothing about what it does (no description, or one
      // without a word: "©"; a `__MSG_…__` key is a localised description, not a missing one): nothing a user or
      // store reviewer could hold the access against, which is how cookie stealers are shaped
      const unstated = broad && !/[\p{L}\p{N}_]{2}/u.test(p.description ?? '');
      out.push({
        // `debugger` attaches the DevTools protocol to any tab: it reads cookies and storage, sees every request and
        // runs script in the page, full control of the browser session whatever the host list says (Chrome
        // extensions reference, chrome.debugger): high on its own
        ...(cred.includes('debugger') || unstated ? { severity: 'high' as const } : {}),
        title: 'Extension permissions that read credentials or sessions',
        description: `Requests ${cred.join(', ')}${broad ? ' together with access to every site' : ''}${unstated ? ', with no stated purpose' : ''}.`,
        evidence: { path: 'permissions', permissions: cred },
        capabilities: ['credentials'],
      });
    }
    return out;
  },
});
