// What a manifest makes happen when it runs, read from its launch commands and environment wherever a format carries
// them: MCP servers' command + args, Dockerfile RUN/CMD/ENTRYPOINT and compose command/entrypoint, notebook shell
// escapes (docs/enrichment.md "Launch semantics"). Every check walks tokens or lines once; no pattern has an
// unbounded gap before a literal.
import { exposesHost, UNCONFINED_OPT } from '../../parse/containers';
import type { ParsedManifest } from '../../types';

/** One command line as tokens, with where it came from. */
export interface Launch {
  path: string;
  tokens: string[];
  /** the command text (tokens joined, or the shell text as written) */
  text: string;
}

const MAX_TOKENS = 400;
const SHELLS = /^(?:ba|z|da|k)?sh$|^cmd(?:\.exe)?$|^(?:powershell|pwsh)(?:\.exe)?$/i;

/** Shell-ish words: split at blanks, exec-form brackets, quotes and commas stripped at the ends. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\s+/)) {
    if (out.length >= MAX_TOKENS) break;
    let a = 0;
    let b = raw.length;
    while (a < b && '["\',('.includes(raw[a]!)) a++;
    while (b > a && '"\',])\\'.includes(raw[b - 1]!)) b--;
    if (b > a) out.push(raw.slice(a, b));
  }
  return out;
}

const base = (cmd: string) => (cmd.split(/[\\/]/).pop() ?? cmd).toLowerCase();

/** Every launch command a manifest carries. */
export function launches(p: ParsedManifest): Launch[] {
  const out: Launch[] = [];
  for (const s of p.servers) {
    if (!s.command) continue;
    const tokens = [s.command, ...s.args].slice(0, MAX_TOKENS);
    // `bash -c "…"`: the script is one argument; its words are the command
    const script = SHELLS.test(base(s.command))
      ? s.args.find((_, i) => /^[-/](?:c|Command)$/i.test(s.args[i - 1] ?? ''))
      : undefined;
    out.push({
      path: `${s.path}.args`,
      tokens: script ? [...tokens, ...tokenize(script)] : tokens,
      text: script ?? tokens.join(' '),
    });
  }
  for (const c of p.containers ?? [])
    for (const cmd of c.commands) out.push({ path: c.path, tokens: tokenize(cmd), text: cmd });
  if (p.notebook_code)
    for (const line of p.notebook_code.split('\n').slice(0, 5000)) {
      const t = line.trimStart();
      if (t.startsWith('!') || t.startsWith('%'))
        out.push({ path: 'cells', tokens: tokenize(t.slice(1)), text: t.slice(1) });
    }
  return out;
}

/** `--flag=value` or `--flag value`: the value of the first matching flag, or '' for a bare flag. */
function flagValues(tokens: readonly string[], flag: RegExp): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    const eq = t.indexOf('=');
    const name = eq > 0 ? t.slice(0, eq) : t;
    if (!flag.test(name)) return;
    const next = tokens[i + 1];
    out.push(eq > 0 ? t.slice(eq + 1) : next !== undefined && !next.startsWith('-') ? next : '');
  });
  return out;
}

const TRUST_FLAG = /^--trust[-_]remote[-_]code$/i;
const TRUST_KWARG = /\btrust_remote_code\s{0,3}=\s{0,3}True\b/;

/** The launch runs repository Python of the model it loads (`--trust-remote-code`, `trust_remote_code=True`). */
export function trustsRemoteCode(l: Launch): boolean {
  return (
    flagValues(l.tokens, TRUST_FLAG).some((v) => v === '' || /^(?:true|1|yes)$/i.test(v)) || TRUST_KWARG.test(l.text)
  );
}

/** Paths that are the whole machine or a whole home directory. */
const BROAD_PATH = /^(?:\/|[A-Za-z]:\\?|~\/?|\$\{?HOME\}?\/?|%USERPROFILE%\\?|\/home\/?|\/Users\/?|\/root\/?)$/;
const WRITE_FLAG =
  /^--(?:allow-write|allow-read-write|allowed-dirs?|allowed-directories|allow-dir|root|root-dir|workspace|base-dir|mount)$/i;

/** Write access granted to the whole file system or home directory by a launch flag (or Deno's unscoped grants). */
export function broadWriteGrant(l: Launch): string | null {
  const cmd = base(l.tokens[0] ?? '');
  if (cmd === 'deno' || l.tokens.includes('deno')) {
    const all = l.tokens.find((t) => t === '-A' || t === '--allow-all' || t === '--allow-write' || t === '--allow-run');
    if (all) return all;
  }
  const v = flagValues(l.tokens, WRITE_FLAG).find((x) => x !== '' && BROAD_PATH.test(x));
  return v === undefined ? null : v;
}

const CONTAINER_RUNTIMES = new Set(['docker', 'podman', 'nerdctl']);
/** The arguments after `docker run`/`create` (or podman, nerdctl); null when the launch starts no container. */
function containerRunArgs(l: Launch): string[] | null {
  const i = l.tokens.findIndex(
    (t, k) => CONTAINER_RUNTIMES.has(base(t)) && /^(?:run|create)$/.test(l.tokens[k + 1] ?? ''),
  );
  return i < 0 ? null : l.tokens.slice(i + 2);
}

/**
 * `--security-opt` values of a `docker run` that switch a confinement profile off (`seccomp=unconfined`,
 * `apparmor=unconfined`, `label=disable`): read like compose `security_opt` (src/parse/containers.ts UNCONFINED_OPT).
 * The container keeps its namespaces and dropped capabilities, so this weakens isolation rather than handing over the
 * host (docs/enrichment.md "Launch semantics").
 */
export function unconfinedFlags(l: Launch): string[] {
  const t = containerRunArgs(l) ?? [];
  const out: string[] = [];
  t.forEach((a, k) => {
    if (!/^--security-opt(?:=|$)/.test(a)) return;
    const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : (t[k + 1] ?? '');
    if (UNCONFINED_OPT.test(v)) out.push(`--security-opt ${v}`);
  });
  return out;
}

/** Flags of a `docker run` (or podman) that hand the container the host. Empty when the launch starts no container. */
export function hostEscapeFlags(l: Launch): string[] {
  const t = containerRunArgs(l);
  if (!t) return [];
  const out: string[] = [];
  t.forEach((a, k) => {
    const next = t[k + 1] ?? '';
    if (a === '--privileged' || /^--privileged=true$/i.test(a)) out.push('--privileged');
    // `--ipc host` shares System V IPC and /dev/shm only, which vLLM and PyTorch data loaders ask for; compose
    // `ipc: host` is read the same way, as no escape (docs/enrichment.md "Launch semantics")
    if (/^--(?:network|net|pid|uts|userns)=host$/.test(a)) out.push(a);
    if (/^--(?:network|net|pid|uts|userns)$/.test(a) && next === 'host') out.push(`${a} host`);
    if (/^--cap-add(?:=|$)/.test(a)) out.push(a.includes('=') ? a : `--cap-add ${next}`);
    if (/^(?:-v|--volume|--mount)$/.test(a) || /^(?:-v|--volume|--mount)=/.test(a)) {
      const spec =
        a.includes('=') && !a.startsWith('--mount')
          ? a.slice(a.indexOf('=') + 1)
          : a.startsWith('--mount')
            ? a.includes('=')
              ? a
              : next
            : next;
      const src =
        spec.startsWith('type=') || spec.includes('source=') || spec.includes('src=')
          ? (/(?:source|src)=([^,]*)/.exec(spec)?.[1] ?? '')
          : (spec.split(':')[0] ?? '');
      if (exposesHost(src)) out.push(`-v ${spec.slice(0, 80)}`);
    }
  });
  return out;
}

// ---- credentials ------------------------------------------------------------------------------------------------

/** A value requested at run time or taken from the environment: `${input:…}`, `${env:…}`, `${VAR}`, `$VAR`, `%VAR%`. */
export function isRuntimeReference(v: string): boolean {
  return /^\$\{[\w:.-]{1,100}\}$|^\$[A-Za-z_]\w{0,100}$|^%[A-Za-z_]\w{0,100}%$|^\{\{[^{}]{0,100}\}\}$/.test(v.trim());
}
const PLACEHOLDER = /your|xxx|\.\.\.|changeme|placeholder|example|replace|insert|redacted|\*\*\*/i;

/** A value that looks like a real secret: not a reference nor a placeholder, long enough, letters and digits. */
export function literalSecret(v: string): boolean {
  const s = v.trim();
  const bracketed = s.startsWith('<') && s.endsWith('>');
  return (
    !isRuntimeReference(s) && !bracketed && !PLACEHOLDER.test(s) && s.length >= 8 && /[A-Za-z]/.test(s) && /\d/.test(s)
  );
}

const SECRET_FLAG =
  /^--?(?:password|passwd|pass|pwd|token|api[-_]?key|apikey|secret|client[-_]secret|access[-_]key|secret[-_]key|auth[-_]token|bearer)$/i;
/** `scheme://user:password@host`: the password part (bounded parts, no nested quantifiers). */
const URL_USERINFO = /^[a-z][a-z0-9+.-]{0,20}:\/\/([^\s/@:]{1,200}):([^\s/@]{1,200})@[^\s/]{1,255}/i;

export interface ArgSecret {
  where: string;
  kind: 'flag' | 'url_password';
  name: string;
}

/** Secrets written into a launch's arguments: `--password …`/`--token=…` values and passwords inside URLs. */
export function argSecrets(l: Launch): ArgSecret[] {
  const out: ArgSecret[] = [];
  l.tokens.forEach((t, i) => {
    const eq = t.indexOf('=');
    const name = eq > 0 ? t.slice(0, eq) : t;
    if (SECRET_FLAG.test(name)) {
      const v = eq > 0 ? t.slice(eq + 1) : (l.tokens[i + 1] ?? '');
      if (literalSecret(v)) out.push({ where: l.path, kind: 'flag', name });
    }
    const sep = t.indexOf('://');
    if (sep <= 0) return;
    let start = sep;
    while (start > 0 && /[A-Za-z0-9+.-]/.test(t[start - 1]!)) start--;
    const url = URL_USERINFO.exec(t.slice(start));
    if (url && url[2] !== undefined && literalSecret(decodeSafe(url[2])))
      out.push({ where: l.path, kind: 'url_password', name: t.slice(start, sep) });
  });
  return out;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---- environment ------------------------------------------------------------------------------------------------

/** `KEY=value` / `KEY: value` / `ENV KEY value` / `- KEY=value` / `%env KEY=value` / `os.environ["KEY"] = "value"`. */
const ENV_LINE =
  /^\s{0,40}(?:-\s{1,4}|ENV\s{1,4}|%env\s{1,4}|export\s{1,4}|os\.environ\[)?["']?([A-Z][A-Z0-9_]{1,60})["']?\]?\s{0,4}(?:=|:\s|\s)\s{0,4}["']?([^\s"'#]{1,500})/;

/** The environment a manifest sets: MCP servers' env, `-e KEY=value` in launches, and container/notebook lines. */
export function environment(p: ParsedManifest, raw: string): Array<{ key: string; value: string; path: string }> {
  const out: Array<{ key: string; value: string; path: string }> = [];
  for (const s of p.servers)
    for (const [key, value] of Object.entries(s.env)) out.push({ key, value, path: `${s.path}.env` });
  for (const l of launches(p))
    l.tokens.forEach((t, i) => {
      if ((l.tokens[i - 1] === '-e' || l.tokens[i - 1] === '--env') && t.includes('=')) {
        const k = t.slice(0, t.indexOf('='));
        if (/^[A-Z][A-Z0-9_]{1,60}$/.test(k)) out.push({ key: k, value: t.slice(t.indexOf('=') + 1), path: l.path });
      }
    });
  if (
    p.kind === 'dockerfile' ||
    p.kind === 'compose' ||
    p.kind === 'notebook' ||
    p.containers?.length ||
    p.notebook_code
  ) {
    const text = p.kind === 'notebook' ? (p.notebook_code ?? '') : raw;
    for (const line of text.split('\n').slice(0, 20000)) {
      const m = ENV_LINE.exec(line);
      if (m && m[1] && m[2]) out.push({ key: m[1], value: m[2], path: p.kind === 'compose' ? 'environment' : 'ENV' });
    }
  }
  return out.slice(0, 2000);
}

/** Host of an http(s) URL, lower-cased; null when the value is not one. */
export function urlHost(v: string): { scheme: string; host: string } | null {
  const m = /^(https?):\/\/(?:[^\s/@]{1,200}@)?(\[[0-9a-f:.]{2,45}\]|[^\s/:?#]{1,255})/i.exec(v.trim());
  return m && m[1] && m[2] ? { scheme: m[1].toLowerCase(), host: m[2].toLowerCase() } : null;
}

export const isLoopback = (host: string) =>
  /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal)$/.test(host);
/** A compose/k8s service name (`ollama`, `vllm`): traffic stays on the host's internal container network. */
export const isServiceName = (host: string) => /^[a-z0-9][a-z0-9_-]{0,62}$/.test(host);

/** Tokens and the hosts that issue them; endpoint variables that redirect where the token is sent. */
export const TOKEN_ISSUERS: ReadonlyArray<{ issuer: string; token: RegExp; endpoint: RegExp; hosts: RegExp }> = [
  {
    issuer: 'Hugging Face',
    token: /^(?:HF_TOKEN|HUGGING_FACE_HUB_TOKEN|HUGGINGFACEHUB_API_TOKEN|HF_API_TOKEN|HUGGINGFACE_TOKEN)$/,
    endpoint: /^(?:HF_ENDPOINT|HF_HUB_ENDPOINT|HUGGINGFACE_HUB_ENDPOINT|HF_INFERENCE_ENDPOINT)$/,
    hosts: /(?:^|\.)(?:huggingface\.co|hf\.co)$/,
  },
  {
    issuer: 'OpenAI',
    token: /^OPENAI_API_KEY$/,
    endpoint: /^(?:OPENAI_BASE_URL|OPENAI_API_BASE|OPENAI_API_BASE_URL|OPENAI_ENDPOINT)$/,
    hosts: /(?:^|\.)openai\.com$/,
  },
  {
    issuer: 'Anthropic',
    token: /^(?:ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN)$/,
    endpoint: /^ANTHROPIC_BASE_URL$/,
    hosts: /(?:^|\.)anthropic\.com$/,
  },
];
const PROXY = /^(?:HTTPS?_PROXY|ALL_PROXY|https?_proxy|all_proxy)$/;

export interface TokenRedirect {
  issuer: string;
  token_key: string;
  endpoint_key: string;
  host: string;
  via: 'endpoint' | 'proxy';
}

/** Tokens passed while an endpoint or proxy variable sends the token's traffic to a host that is not its issuer. */
export function tokenRedirects(env: ReadonlyArray<{ key: string; value: string }>): TokenRedirect[] {
  const out: TokenRedirect[] = [];
  for (const iss of TOKEN_ISSUERS) {
    // a token: a reference to the real one, or a literal that is not a dummy (`EMPTY`, `sk-no-key-required`)
    const tok = env.find((e) => iss.token.test(e.key) && (isRuntimeReference(e.value) || literalSecret(e.value)));
    if (!tok) continue;
    for (const e of env) {
      const h = urlHost(e.value);
      if (!h || isLoopback(h.host) || isServiceName(h.host) || iss.hosts.test(h.host)) continue;
      if (iss.endpoint.test(e.key))
        out.push({ issuer: iss.issuer, token_key: tok.key, endpoint_key: e.key, host: h.host, via: 'endpoint' });
      else if (PROXY.test(e.key))
        out.push({ issuer: iss.issuer, token_key: tok.key, endpoint_key: e.key, host: h.host, via: 'proxy' });
    }
  }
  return out;
}

/** Endpoint-like variables (`*_URL`, `*_ENDPOINT`, `*_BASE`, `*_HOST`, proxies) over plain http to another machine. */
export function plainHttpEndpoints(
  env: ReadonlyArray<{ key: string; value: string; path: string }>,
): Array<{ key: string; host: string; path: string }> {
  const out: Array<{ key: string; host: string; path: string }> = [];
  for (const e of env) {
    if (!/(?:URL|URI|ENDPOINT|BASE|HOST|PROXY|SERVER)$/i.test(e.key)) continue;
    const h = urlHost(e.value);
    if (h && h.scheme === 'http' && !isLoopback(h.host) && !isServiceName(h.host))
      out.push({ key: e.key, host: h.host, path: e.path });
  }
  return out;
}
