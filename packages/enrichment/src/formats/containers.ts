// Container formats: Dockerfiles and compose files (docs/enrichment.md "Manifests recognised").
import {
  dockerInstructionShare,
  isCompose,
  looksLikeDockerfile,
  parseCompose,
  parseDockerfile,
} from '../parse/containers';
import { defineFormat } from './define';

/** The share of a line format's lines that must be its own: by default, and when the file name is the format's. */
const MOST = 0.5;
const MOST_NAMED = 0.25;

export const DOCKERFILE = defineFormat({
  id: 'dockerfile',
  title: 'Dockerfile',
  family: 'container',
  syntax: ['lines'],
  summary:
    'stages and their base images (a later `FROM <stage>` is not an image), the RUN, CMD and ENTRYPOINT commands (continuation lines joined)',
  names: /^(?:dockerfile|containerfile)(?:\.[\w-]+)?$|\.dockerfile$/i,
  recognise: (doc, ctx) =>
    looksLikeDockerfile(doc.raw, doc.firstLine()) &&
    dockerInstructionShare(doc.lines()) >= (ctx.named ? MOST_NAMED : MOST)
      ? 0.9
      : 0,
  parse: (p, doc) => parseDockerfile(p, doc.raw),
  carries: ['launch_commands', 'environment', 'artifacts'],
  corpus: { name: 'dockerfile', example: 'c026' },
  notes:
    'A `FROM` first, at least one instruction a Modelfile does not have (RUN, COPY, CMD…), and instructions for most of its lines (continuations and here-documents included).',
});

export const COMPOSE = defineFormat({
  id: 'compose',
  title: 'Compose file',
  family: 'container',
  syntax: ['yaml'],
  summary:
    'each service: image, `privileged`, `network_mode: host`, `pid: host`, `cap_add`, host bind mounts, ports published on every interface, command and entrypoint',
  names: /^(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$/i,
  recognise: (doc) => {
    const d = doc.data();
    return d?.syntax === 'yaml' && isCompose(d.value as Record<string, unknown>) ? 0.99 : 0;
  },
  parse(p, doc) {
    const y = doc.yaml();
    if (!y) return;
    p.format = 'yaml';
    parseCompose(p, y);
  },
  carries: ['launch_commands', 'environment', 'endpoints'],
  corpus: { name: 'compose', example: 'c068' },
});
