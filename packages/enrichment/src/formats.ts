// Readers for the formats issue 18 item 2 added: Dockerfiles, compose files, browser extension manifests (MV2/MV3),
// Jupyter notebooks, setup.cfg, requirement lines fetched from a URL or VCS, and JSONC (VS Code mcp.json with comments
// and trailing commas). Every pattern here is linear-time (`pnpm check:redos`) and every list is capped (src/limits.ts).
import type { ContainerSpec, ExtensionSpec, ParsedManifest } from './types';
import { LIMITS } from './limits';
import { isObj, str } from './util';

type Obj = Record<string, unknown>;

/** Caps for what these readers keep (the general LIMITS hold the rest). */
const MAX_CONTAINERS = LIMITS.servers;
const MAX_COMMAND_TEXT = 64 * 1024;
const MAX_PATTERNS = 200;

const cap = (s: string): string => (s.length > LIMITS.item_string ? s.slice(0, LIMITS.item_string) : s);
const strs = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .filter((x): x is string => typeof x === 'string')
        .slice(0, MAX_PATTERNS)
        .map(cap)
    : [];

/**
 * JSON with comments and trailing commas (VS Code `mcp.json`, documented as JSONC) as plain JSON text: one pass over the
 * characters, strings kept verbatim. Returns null when nothing was removed (the caller already failed on the input).
 */
export function stripJsonc(text: string): string | null {
  let out = '';
  let changed = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      changed = true;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      changed = true;
    } else if (c === ',') {
      let j = i + 1;
      while (j < n && /\s/.test(text[j] ?? '')) j++;
      if (text[j] === '}' || text[j] === ']') changed = true;
      else out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return changed ? out : null;
}

// ---- Dockerfile -------------------------------------------------------------------------------------------------

const DOCKER_ONLY =
  /^(?:RUN|COPY|ADD|WORKDIR|ENTRYPOINT|CMD|EXPOSE|ENV|ARG|USER|LABEL|VOLUME|HEALTHCHECK|SHELL|ONBUILD|STOPSIGNAL)\s/m;
const DOCKER_FROM = /^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?/i;

/** A Dockerfile: a FROM line and at least one instruction a Modelfile does not have (RUN, COPY, CMD...). */
export function looksLikeDockerfile(text: string, firstLine: string): boolean {
  return /^(?:FROM|ARG)\s/i.test(firstLine) && DOCKER_ONLY.test(text) && /^FROM\s/im.test(text);
}

export function parseDockerfile(p: ParsedManifest, text: string): void {
  p.kind = 'dockerfile';
  p.format = 'text';
  const stages = new Set<string>();
  const containers: ContainerSpec[] = [];
  // continuation lines joined, so one RUN is one command
  const logical: string[] = [];
  let cur = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (cur === '' && /^\s*#/.test(line)) continue;
    const cont = line.endsWith('\\');
    cur += (cont ? line.slice(0, -1) : line) + ' ';
    if (!cont) {
      if (cur.trim()) logical.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) logical.push(cur.trim());
  let stage: ContainerSpec | null = null;
  let commandText = 0;
  for (const l of logical) {
    const from = DOCKER_FROM.exec(l);
    if (from) {
      const image = from[1] ?? '';
      stage = {
        path: `FROM ${cap(image)}`,
        image: stages.has(image.toLowerCase()) ? null : cap(image),
        privileged: false,
        network_host: false,
        pid_host: false,
        cap_add: [],
        host_mounts: [],
        commands: [],
      };
      if (from[2]) stages.add(from[2].toLowerCase());
      if (containers.length < MAX_CONTAINERS) containers.push(stage);
      continue;
    }
    const run = /^(?:RUN|CMD|ENTRYPOINT)\s/i.exec(l);
    if (run && stage && commandText < MAX_COMMAND_TEXT) {
      const c = l
        .slice(run[0].length)
        .trim()
        .slice(0, MAX_COMMAND_TEXT - commandText);
      commandText += c.length;
      stage.commands.push(c);
    }
  }
  p.containers = containers;
}

// ---- compose ----------------------------------------------------------------------------------------------------

/** A compose file: a `services` map whose entries have an image or a build. */
export function isCompose(y: Obj): boolean {
  return isObj(y.services) && Object.values(y.services).some((s) => isObj(s) && ('image' in s || 'build' in s));
}

/** Host paths that expose the host: root, system directories, home directories, the Docker socket. */
const HOST_PATH =
  /^(?:\/|\/(?:etc|root|home|Users|var\/run\/docker\.sock|run\/docker\.sock|proc|sys|dev)(?:\/[^:]*)?|~(?:\/[^:]*)?|\$\{?HOME\}?(?:\/[^:]*)?)$/;

function hostMount(v: unknown): string | null {
  let source: string | null = null;
  if (typeof v === 'string') {
    const i = v.indexOf(':');
    source = i > 0 ? v.slice(0, i) : null;
  } else if (isObj(v) && (v.type === 'bind' || v.type === undefined)) source = str(v.source);
  return source && HOST_PATH.test(source) ? cap(source) : null;
}

/**
 * A compose `ports` entry published on every host interface, as written; null when bound to one address
 * (`127.0.0.1:8080:80`) or not published. Short form `[HOST_IP:]HOST:CONTAINER`; long form `{published, host_ip}`
 * (Compose specification "ports").
 */
function publishedOnAllInterfaces(v: unknown): string | null {
  if (isObj(v)) {
    const ip = str(v.host_ip);
    return v.published !== undefined && (!ip || ip === '0.0.0.0') ? cap(String(v.published)) : null;
  }
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  if (!s.includes(':')) return null; // a container port alone is published on an ephemeral host port
  const parts = s.split(':');
  // `${VAR-3000}:80` has no colon inside the variable; IPv6 host IPs come in brackets
  if (parts.length >= 3 && parts[0] !== '0.0.0.0' && parts[0] !== '') return null;
  return cap(s);
}

export function parseCompose(p: ParsedManifest, y: Obj): void {
  p.kind = 'compose';
  const containers: ContainerSpec[] = [];
  let commandText = 0;
  for (const [name, s] of Object.entries(isObj(y.services) ? y.services : {})) {
    if (!isObj(s) || containers.length >= MAX_CONTAINERS) continue;
    const commands: string[] = [];
    for (const k of ['command', 'entrypoint']) {
      const v = s[k];
      const c = typeof v === 'string' ? v : strs(v).join(' ');
      if (c && commandText < MAX_COMMAND_TEXT) {
        commands.push(c.slice(0, MAX_COMMAND_TEXT - commandText));
        commandText += c.length;
      }
    }
    const volumes = Array.isArray(s.volumes) ? s.volumes.slice(0, MAX_PATTERNS) : [];
    containers.push({
      path: `services.${cap(name)}`,
      image: str(s.image) ? cap(str(s.image) ?? '') : null,
      privileged: s.privileged === true || s.privileged === 'true',
      network_host: s.network_mode === 'host',
      pid_host: s.pid === 'host',
      cap_add: strs(s.cap_add),
      host_mounts: volumes.map(hostMount).filter((m): m is string => m !== null),
      commands,
      published_ports: (Array.isArray(s.ports) ? s.ports.slice(0, MAX_PATTERNS) : [])
        .map(publishedOnAllInterfaces)
        .filter((x): x is string => x !== null),
    });
  }
  p.containers = containers;
}

// ---- browser extension ------------------------------------------------------------------------------------------

/** A WebExtension manifest.json: `manifest_version` 2 or 3 and extension-only keys. */
export function isExtensionManifest(j: Obj): boolean {
  return (
    (j.manifest_version === 2 || j.manifest_version === 3) &&
    ('permissions' in j ||
      'content_scripts' in j ||
      'background' in j ||
      'host_permissions' in j ||
      'action' in j ||
      'browser_action' in j)
  );
}

export function parseExtension(p: ParsedManifest, j: Obj): void {
  p.kind = 'browser_extension';
  p.name = str(j.name);
  p.version = str(j.version);
  p.description = str(j.description);
  const perms = strs(j.permissions);
  const ext: ExtensionSpec = {
    manifest_version: j.manifest_version === 2 ? 2 : 3,
    // MV2 puts host patterns in `permissions`
    permissions: perms.filter((x) => !x.includes('/') && x !== '<all_urls>'),
    host_permissions: [...strs(j.host_permissions), ...perms.filter((x) => x.includes('/') || x === '<all_urls>')],
    content_script_matches: (Array.isArray(j.content_scripts) ? j.content_scripts.slice(0, MAX_PATTERNS) : []).flatMap(
      (c) => (isObj(c) ? strs(c.matches) : []),
    ),
  };
  p.extension = ext;
}

/** Match patterns that reach every site (MDN "Match patterns"). */
export function isBroadHostPattern(m: string): boolean {
  return /^(?:<all_urls>|(?:\*|https?|wss?):\/\/\*\/.*)$/.test(m);
}

// ---- notebooks, setup.cfg, URL requirements ---------------------------------------------------------------------

export function isNotebook(j: Obj): boolean {
  return Array.isArray(j.cells) && isObj(j.metadata) && typeof j.nbformat === 'number';
}

export function parseNotebook(p: ParsedManifest, j: Obj): void {
  p.kind = 'notebook';
  let code = '';
  for (const c of (j.cells as unknown[]).slice(0, 2000)) {
    if (!isObj(c) || c.cell_type !== 'code') continue;
    const src = typeof c.source === 'string' ? c.source : strs(c.source).join('');
    code += `${src}\n`;
    if (code.length >= MAX_COMMAND_TEXT) break;
  }
  p.notebook_code = code.slice(0, MAX_COMMAND_TEXT);
}

/**
 * A requirement installed from a URL or VCS (PEP 440 direct references, pip's VCS support) or an editable install:
 * `git+https://…`, `https://…/x.whl`, `name @ https://…`, `-e git+…`, `-e .`.
 */
export const URL_REQUIREMENT =
  /^(?:-e\s+|--editable[\s=]+)?(?:(?:git|hg|svn|bzr)\+\S+|https?:\/\/\S+|file:\S+|\.{1,2}(?:\/\S*)?)$|^[A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?\s*@\s*\S+/;

/** A URL/VCS requirement line, its environment marker (`; platform_system == …`, pip accepts it unspaced) and comment ignored. */
export function isUrlRequirement(line: string): boolean {
  const semi = line.indexOf(';');
  const hash = line.indexOf(' #');
  let end = line.length;
  if (semi >= 0) end = semi;
  if (hash >= 0 && hash < end) end = hash;
  return URL_REQUIREMENT.test(line.slice(0, end).trim());
}

/** setup.cfg (setuptools declarative config): INI sections `[metadata]` / `[options]`. */
export function looksLikeSetupCfg(text: string): boolean {
  // line by line (a multiline `\s*$` would be polynomial): the first 200 lines are enough to find a section
  return text
    .split('\n', 200)
    .some((l) => /^\[(?:metadata|options|bdist_wheel|flake8|tool:pytest|egg_info|options\.[\w.]+)\]$/.test(l.trim()));
}

/** The INI sections of a setup.cfg: section → key → value (continuation lines joined with newlines). */
export function parseIni(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let section: Record<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split('\n').slice(0, 20_000)) {
    const line = raw.replace(/\r$/, '');
    if (/^\s*[#;]/.test(line) || line.trim() === '') continue;
    const sec = /^\[([^\]]+)\]/.exec(line);
    if (sec) {
      section = out[sec[1] ?? ''] = out[sec[1] ?? ''] ?? {};
      key = null;
      continue;
    }
    if (!section) continue;
    if (/^\s/.test(line) && key) {
      section[key] = `${section[key] ?? ''}\n${line.trim()}`;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) {
      key = line.slice(0, eq).trim().toLowerCase();
      section[key] = line.slice(eq + 1).trim();
    }
  }
  return out;
}
