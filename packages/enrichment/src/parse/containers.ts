// Container definitions: Dockerfiles and compose files, read into ContainerSpecs (stages / services: image, privileges,
// host mounts, published ports, the commands they run). Every pattern here is linear-time (`pnpm check:redos`) and
// every list is capped (src/limits.ts).
import type { ContainerSpec, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { capItem, capItems, MAX_COMMAND_TEXT, MAX_PATTERNS } from './common';
import { LIMITS } from '../limits';

const MAX_CONTAINERS = LIMITS.servers;

const DOCKER_ONLY =
  /^(?:RUN|COPY|ADD|WORKDIR|ENTRYPOINT|CMD|EXPOSE|ENV|ARG|USER|LABEL|VOLUME|HEALTHCHECK|SHELL|ONBUILD|STOPSIGNAL)\s/m;
const DOCKER_FROM = /^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?/i;

/** A Dockerfile: a FROM line and at least one instruction a Modelfile does not have (RUN, COPY, CMD...). */
export function looksLikeDockerfile(text: string, firstLine: string): boolean {
  return /^(?:FROM|ARG)\s/i.test(firstLine) && DOCKER_ONLY.test(text) && /^FROM\s/im.test(text);
}

const DOCKER_INSTRUCTION =
  /^(?:FROM|RUN|COPY|ADD|WORKDIR|ENTRYPOINT|CMD|EXPOSE|ENV|ARG|USER|LABEL|VOLUME|HEALTHCHECK|SHELL|ONBUILD|STOPSIGNAL|MAINTAINER)(?:\s|$)/i;
const HEREDOC = /<<-?["']?(\w+)/;

/**
 * The share of a Dockerfile's instructions among its lines with content (continuation lines and here-documents belong
 * to their instruction): a file is a Dockerfile by what most of it is, not by one FROM and one RUN among other text.
 */
export function dockerInstructionShare(lines: readonly string[]): number {
  let total = 0;
  let instructions = 0;
  let continued = false;
  let heredoc: string | null = null;
  for (const raw of lines) {
    const t = raw.trim();
    if (heredoc !== null) {
      if (t === heredoc) heredoc = null;
      continue;
    }
    if (continued) {
      continued = t.endsWith('\\');
      continue;
    }
    if (!t || t.startsWith('#')) continue;
    total++;
    if (DOCKER_INSTRUCTION.test(t)) {
      instructions++;
      heredoc = HEREDOC.exec(t)?.[1] ?? null;
    }
    continued = t.endsWith('\\');
  }
  return total ? instructions / total : 0;
}

export function parseDockerfile(p: ParsedManifest, text: string): void {
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
        path: `FROM ${capItem(image)}`,
        image: stages.has(image.toLowerCase()) ? null : capItem(image),
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

/** A compose file: a `services` map whose entries have an image or a build. */
export function isCompose(y: Obj): boolean {
  return isObj(y.services) && Object.values(y.services).some((s) => isObj(s) && ('image' in s || 'build' in s));
}

/**
 * Bind-mount sources that hand over the host: the root, whole system directories, the Docker socket, a whole home
 * directory. A folder inside one (`~/.cache/huggingface`, `/home/me/models`, `/etc/localtime`) is an ordinary bind
 * mount; compose volumes and `docker run -v` are judged alike (docs/enrichment.md "Launch semantics").
 */
const HOST_SOURCE =
  /^(?:\/|\/(?:etc|root|proc|sys|dev|boot|var\/lib\/docker|var\/run\/docker\.sock|run\/docker\.sock|home|Users)|\/(?:home|Users)\/[^/:]{1,64}|~|\$\{?HOME\}?)\/?$/;

/** Whether a mount source exposes the host (see HOST_SOURCE). */
export function exposesHost(source: string): boolean {
  return HOST_SOURCE.test(source);
}

function hostMount(v: unknown): string | null {
  let source: string | null = null;
  if (typeof v === 'string') {
    const i = v.indexOf(':');
    source = i > 0 ? v.slice(0, i) : null;
  } else if (isObj(v) && (v.type === 'bind' || v.type === undefined)) source = str(v.source);
  return source && exposesHost(source) ? capItem(source) : null;
}

/**
 * A compose `ports` entry published on every host interface, as written; null when bound to one address
 * (`127.0.0.1:8080:80`) or not published. Short form `[HOST_IP:]HOST:CONTAINER`; long form `{published, host_ip}`
 * (Compose specification "ports").
 */
function publishedOnAllInterfaces(v: unknown): string | null {
  if (isObj(v)) {
    const ip = str(v.host_ip);
    return v.published !== undefined && (!ip || ip === '0.0.0.0') ? capItem(String(v.published)) : null;
  }
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  if (!s.includes(':')) return null; // a container port alone is published on an ephemeral host port
  const parts = s.split(':');
  // `${VAR-3000}:80` has no colon inside the variable; IPv6 host IPs come in brackets
  if (parts.length >= 3 && parts[0] !== '0.0.0.0' && parts[0] !== '') return null;
  return capItem(s);
}

/**
 * A `security_opt` entry that switches a confinement profile off: seccomp, AppArmor or the masked system paths
 * `unconfined`, SELinux labelling `disable` (`seccomp:unconfined`, `seccomp=unconfined`, `label:disable`).
 */
export const UNCONFINED_OPT = /^(?:seccomp|apparmor|systempaths)[:=]unconfined$|^label[:=]disable$/i;

export function parseCompose(p: ParsedManifest, y: Obj): void {
  const containers: ContainerSpec[] = [];
  let commandText = 0;
  for (const [name, s] of Object.entries(isObj(y.services) ? y.services : {})) {
    if (!isObj(s) || containers.length >= MAX_CONTAINERS) continue;
    const commands: string[] = [];
    for (const k of ['command', 'entrypoint']) {
      const v = s[k];
      const c = typeof v === 'string' ? v : capItems(v).join(' ');
      if (c && commandText < MAX_COMMAND_TEXT) {
        commands.push(c.slice(0, MAX_COMMAND_TEXT - commandText));
        commandText += c.length;
      }
    }
    const volumes = Array.isArray(s.volumes) ? s.volumes.slice(0, MAX_PATTERNS) : [];
    containers.push({
      path: `services.${capItem(name)}`,
      image: str(s.image) ? capItem(str(s.image) ?? '') : null,
      privileged: s.privileged === true || s.privileged === 'true',
      network_host: s.network_mode === 'host',
      pid_host: s.pid === 'host',
      cap_add: capItems(s.cap_add),
      host_mounts: volumes.map(hostMount).filter((m): m is string => m !== null),
      commands,
      published_ports: (Array.isArray(s.ports) ? s.ports.slice(0, MAX_PATTERNS) : [])
        .map(publishedOnAllInterfaces)
        .filter((x): x is string => x !== null),
      unconfined: capItems(s.security_opt).filter((o) => UNCONFINED_OPT.test(o.trim())),
      built: s.build !== undefined && s.build !== null,
    });
  }
  p.containers = containers;
}
