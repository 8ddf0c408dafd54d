// Exposure rules: containers that reach the host, servers reached over insecure transport or bound to every
// interface (docs/enrichment.md "Rule catalogue", R24 and R25).
import type { McpServerEntry } from '../types';
import { uniq } from '../util';
import { defineRule, type Emission } from './define';
import {
  environment,
  hostEscapeFlags,
  isLoopback,
  launches,
  plainHttpEndpoints,
  unconfinedFlags,
  urlHost,
} from './signals/launch';

const PRIV_ARGS = /^--privileged$|^--(?:network|net)(?:=|\s)?host$|docker\.sock|^--pid(?:=|\s)?host$|^--cap-add/;
const HOME_MOUNT = /(?:^|[\s=:])(?:\$HOME|~|\/home\/[\w.-]+|\/root|\/Users\/[\w.-]+)(?:\/?)(?::|$)/;
const BIND_ALL = /0\.0\.0\.0/;
/** Gradio's public share link (a *.gradio.live tunnel to the app): `share=True` in code that calls `.launch(`, or a
 * `--share` flag. Two small patterns and a substring test: no gap between `.launch(` and `share` to rescan. */
const SHARE_TRUE = /\bshare[ \t]{0,3}=[ \t]{0,3}True\b/;
const SHARE_FLAG = /(?:^|[ \t])--share(?:$|[ \t])/m;
function gradioShare(text: string): string | null {
  const kw = text.includes('.launch(') ? SHARE_TRUE.exec(text) : null;
  return kw?.[0] ?? SHARE_FLAG.exec(text)?.[0] ?? null;
}
/** A public tunnel to a local app (cloudflared quick tunnels, ngrok, localtunnel, serveo, localhost.run): like a share
 * link, it publishes the app on the internet. Bounded gaps only (linear). */
const PUBLIC_TUNNEL =
  /\bcloudflared\b.{0,6}\btunnel\b|\bngrok\b.{0,6}\b(?:http|tcp|tls)\b|\bngrok\.connect\(|\btrycloudflare\.com\b|\blocaltunnel\b|\bserveo\.net\b|\blocalhost\.run\b/;
/** A download command, and a URL path that names code or a package an installer runs (`.deb` for dpkg, `.sh`…). */
const DOWNLOADER = /\b(?:wget|curl|aria2c|Invoke-WebRequest|iwr)\b/i;
const PLAIN_HTTP_URL = /\bhttp:\/\/[^\s'"<>]{1,500}/g;
const CODE_PATH = /\.(?:deb|rpm|apk|sh|run|bin|exe|msi|whl|jar|appimage|pkg|dmg)(?:[?#]|$)/i;

/** Code or packages a command line downloads over plain HTTP from another host: whoever is on the path chooses it. */
function plainHttpCode(text: string): Array<{ host: string; url: string }> {
  const out: Array<{ host: string; url: string }> = [];
  for (const line of text.split('\n').slice(0, 5000)) {
    if (!line.includes('http://') || !DOWNLOADER.test(line)) continue;
    for (const m of line.matchAll(PLAIN_HTTP_URL)) {
      const h = urlHost(m[0]);
      if (h && !isLoopback(h.host) && CODE_PATH.test(m[0])) out.push({ host: h.host, url: m[0].slice(0, 200) });
    }
  }
  return out;
}
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1)$/i;

/** `docker run` flags of one server that give the container the host (privileged, host network/pid, host mounts). */
function privilegedFlags(s: McpServerEntry): string[] {
  const cmd = (s.command ?? '').toLowerCase();
  if (cmd !== 'docker' && cmd !== 'podman' && s.registry !== 'oci') return [];
  const args = s.args;
  return args.filter(
    (a, i) =>
      PRIV_ARGS.test(a) ||
      ((a === '--network' || a === '--net' || a === '--pid') && args[i + 1] === 'host') ||
      (/^(-v|--volume|--mount)$/.test(args[i - 1] ?? '') && (a.includes('docker.sock') || HOME_MOUNT.test(a))),
  );
}

export const R24 = defineRule({
  id: 'R24',
  title: 'Privileged container configuration',
  severity: 'high',
  weight: 35,
  category: 'capability',
  rationale: '--privileged, host network, docker.sock or $HOME mounts let the server escape its container.',
  remediation: 'Drop privileges, mount only required paths read-only.',
  attack_techniques: ['AML.T0105'],
  references: ['§3 R24'],
  evaluate({ p }) {
    const out: Emission[] = [];
    for (const s of p.servers) {
      const priv = privilegedFlags(s);
      const cmd = (s.command ?? '').toLowerCase();
      const container = cmd === 'docker' || cmd === 'podman' || s.registry === 'oci';
      if (container && (priv.length || /docker\.sock/.test(s.args.join(' '))))
        out.push({
          description: `Container runs with ${uniq(priv).slice(0, 5).join(', ')}.`,
          evidence: { path: `${s.path}.args`, flags: uniq(priv).slice(0, 10) },
          capabilities: ['host_access'],
        });
    }
    // `docker run` anywhere a manifest launches something (a shell script, a RUN line, a notebook cell), and host
    // mounts of the root or system directories (`-v /:/host`), read from the launch's own words
    const reported = new Set(out.map((o) => o.evidence.path));
    for (const l of launches(p)) {
      const flags = hostEscapeFlags(l);
      if (!flags.length || reported.has(l.path)) continue;
      reported.add(l.path);
      out.push({
        description: `Container runs with ${uniq(flags).slice(0, 5).join(', ')}.`,
        evidence: { path: l.path, flags: uniq(flags).slice(0, 10) },
        capabilities: ['host_access'],
      });
    }
    const priv: Array<{ path: string; flags: string[] }> = [];
    for (const c of p.containers ?? []) {
      const flags = [
        ...(c.privileged ? ['privileged'] : []),
        ...(c.network_host ? ['network_mode: host'] : []),
        ...(c.pid_host ? ['pid: host'] : []),
        ...c.cap_add.map((x) => `cap_add: ${x}`),
        ...c.host_mounts.map((m) => `host mount ${m}`),
      ];
      if (flags.length) priv.push({ path: c.path, flags });
    }
    if (priv.length)
      out.push({
        description: `Container runs with ${priv
          .flatMap((x) => x.flags)
          .slice(0, 5)
          .join(', ')}.`,
        evidence: { path: priv[0]?.path ?? 'services', containers: priv.slice(0, 20) },
        capabilities: ['host_access'],
      });
    // a confinement profile switched off (seccomp/AppArmor unconfined) in compose or `docker run` alike: the container
    // keeps its namespaces, so isolation is weakened rather than handed over — medium (docs/enrichment.md R24)
    const unconfined = [
      ...(p.containers ?? []).flatMap((c) => (c.unconfined ?? []).map((o) => ({ path: c.path, flag: o }))),
      ...launches(p).flatMap((l) => unconfinedFlags(l).map((f) => ({ path: l.path, flag: f }))),
    ];
    if (unconfined.length)
      out.push({
        severity: 'medium',
        title: 'Container confinement switched off',
        description: `Container runs without its confinement profile: ${uniq(unconfined.map((u) => u.flag))
          .slice(0, 5)
          .join(', ')}.`,
        evidence: { path: unconfined[0]!.path, flags: uniq(unconfined.map((u) => u.flag)).slice(0, 10) },
        capabilities: ['host_access'],
      });
    return out;
  },
});

export const R25 = defineRule({
  id: 'R25',
  title: 'Insecure remote transport',
  severity: 'medium',
  weight: 15,
  category: 'network',
  rationale: 'Remote MCP over plain http (non-loopback), SSE without auth, or binding 0.0.0.0 exposes the server.',
  remediation: 'Use https with authentication; bind to loopback.',
  attack_techniques: ['AML.T0049'],
  references: ['§3 R25'],
  evaluate({ p, raw }) {
    const out: Emission[] = [];
    // endpoints set in the environment (`OPENAI_BASE_URL=http://10.0.0.5/v1`, `HF_ENDPOINT=http://mirror`): plain http
    // to any machine but this one, private ranges included (docs/enrichment.md "Launch semantics")
    const plain = plainHttpEndpoints(environment(p, raw));
    if (plain.length)
      out.push({
        description: `Endpoint${plain.length > 1 ? 's' : ''} over plain HTTP to another host: ${uniq(
          plain.map((e) => `${e.key} → ${e.host}`),
        )
          .slice(0, 5)
          .join(', ')}.`,
        evidence: { path: plain[0]!.path, endpoints: plain.slice(0, 10) },
      });
    // a server reached through a bridge (`npx mcp-remote http://10.0.0.2/sse`): the URL is an argument
    const bridged = launches(p).flatMap((l) =>
      p.servers.some((s) => `${s.path}.args` === l.path)
        ? l.tokens
            .map((t) => urlHost(t))
            .filter((h): h is { scheme: string; host: string } => !!h && h.scheme === 'http' && !isLoopback(h.host))
            .map((h) => ({ path: l.path, host: h.host }))
        : [],
    );
    if (bridged.length)
      out.push({
        description: `Remote server over plain HTTP: ${uniq(bridged.map((b) => b.host))
          .slice(0, 5)
          .join(', ')}.`,
        evidence: { path: bridged[0]!.path, hosts: uniq(bridged.map((b) => b.host)).slice(0, 10) },
      });
    for (const s of p.servers) {
      if (s.url) {
        const m = /^http:\/\/([^/:]+)/i.exec(s.url);
        if (m && m[1] && !LOOPBACK_HOST.test(m[1]))
          out.push({
            description: `Remote server over plain HTTP: ${s.url}.`,
            evidence: { path: `${s.path}.url`, url: s.url },
          });
        else if (
          s.transport === 'sse' &&
          !/^https?:\/\/(localhost|127\.|\[::1\])/i.test(s.url) &&
          !Object.keys(s.headers).some((h) => /auth|token|key/i.test(h))
        )
          out.push({
            confidence: 0.6,
            description: 'SSE transport without an authentication header.',
            evidence: { path: `${s.path}.headers`, url: s.url },
          });
      }
      if (s.args.some((a) => BIND_ALL.test(a)) || Object.values(s.env).some((v) => BIND_ALL.test(v)))
        out.push({
          confidence: 0.6,
          description: 'Server binds 0.0.0.0.',
          evidence: { path: s.path, bind: '0.0.0.0' },
        });
    }
    // Gradio's share link publishes the app on the internet through a tunnel, whatever the host's firewall says
    const shellText = [...(p.containers ?? []).flatMap((c) => c.commands), p.notebook_code ?? ''];
    const share = shellText.map(gradioShare).find((m) => !!m);
    const tunnel = share ? null : shellText.map((t) => PUBLIC_TUNNEL.exec(t)?.[0]).find((m) => !!m);
    if (tunnel)
      out.push({
        title: 'Public tunnel',
        description: `Publishes the app through a public tunnel (${tunnel.trim().slice(0, 60)}): anyone with the URL reaches it.`,
        evidence: { path: p.notebook_code ? 'cells' : 'RUN', match: tunnel.trim().slice(0, 120) },
        capabilities: ['network_exposure'],
      });
    if (share)
      out.push({
        title: 'Public share link',
        description: `Launches the app with a public share link (${share.trim().slice(0, 60)}): anyone with the URL reaches it.`,
        evidence: { path: p.notebook_code ? 'cells' : 'RUN', match: share.trim().slice(0, 120) },
        capabilities: ['network_exposure'],
      });
    // a package or script fetched over plain HTTP and then installed or run (`wget http://…/x.deb && dpkg -i`): anyone
    // on the network path can substitute it, and it runs with the installer's rights (root in a build or a notebook
    // runtime): high, as reviewers rate it
    const fetched = shellText.flatMap(plainHttpCode);
    if (fetched.length)
      out.push({
        severity: 'high',
        title: 'Code downloaded over plain HTTP',
        description: `Downloads ${fetched.length > 1 ? `${fetched.length} packages or scripts` : 'a package or script'} over plain HTTP from ${uniq(
          fetched.map((f) => f.host),
        )
          .slice(0, 3)
          .join(', ')}: a network attacker can replace what is installed.`,
        evidence: { path: p.notebook_code ? 'cells' : 'RUN', urls: fetched.slice(0, 10).map((f) => f.url) },
      });
    // a service published on every interface answers anyone on the network. Recorded, not scored: publishing a port is
    // how a compose file runs a server at all, and reviewers rated 4 of 5 such corpus files on other grounds
    // (docs/enrichment.md R25)
    const published = (p.containers ?? []).filter((c) => c.published_ports?.length);
    if (published.length)
      out.push({
        severity: 'informational',
        title: 'Service published on every network interface',
        description: `Ports published on all host interfaces: ${published
          .flatMap((c) => c.published_ports ?? [])
          .slice(0, 5)
          .join(', ')}.`,
        evidence: {
          path: published[0]?.path ?? 'services',
          ports: published
            .slice(0, 10)
            .map((c) => ({ service: c.path, ports: (c.published_ports ?? []).slice(0, 10) })),
        },
        capabilities: ['network_exposure'],
      });
    return out;
  },
});
