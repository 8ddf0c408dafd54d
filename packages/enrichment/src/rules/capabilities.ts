// What an agent is given: poisoned tool descriptions, shell and code execution, filesystem, network, messaging and
// payments, missing annotations, code-executing chains (docs/enrichment.md "Rule catalogue", R16–R19, R26, R27).
import { isBroadHostPattern } from '../formats';
import { truncate, uniq } from '../util';
import { defineRule, type Emission } from './define';
import { OFFENSIVE_TOOLS } from './signals/commands';
import { broadWriteGrant, launches } from './signals/launch';
import { toolSignals } from './signals/tools';

const CODE_CHAINS =
  /\b(LLMMathChain|PALChain|PythonREPLTool|PythonREPL|PythonAstREPLTool|PandasQueryEngine|create_pandas_dataframe_agent|create_python_agent|create_csv_agent)\b/g;
const INSTALL_HOOK = /^(preinstall|install|postinstall)$/;
const INSTALL_SHELL = /curl|wget|node -e|bash|sh -c|powershell/i;

export const R16 = defineRule({
  id: 'R16',
  title: 'Tool description poisoning',
  severity: 'critical',
  weight: 60,
  category: 'prompt_injection',
  rationale:
    'Hidden instructions in tool descriptions (<IMPORTANT>, ignore previous, secret paths, invisible characters) steer the agent.',
  remediation: 'Remove the server; pin reviewed tool descriptions and alert on changes.',
  attack_techniques: ['AML.T0110', 'AML.T0051.001', 'AML.T0104'],
  references: ['§3 R16'],
  evaluate(ctx) {
    const { poisoned } = toolSignals(ctx);
    if (!poisoned.length) return [];
    return [
      {
        description: `Tool description(s) contain injection indicators: ${poisoned
          .map((x) => `${x.tool} [${x.indicators.join(', ')}]`)
          .slice(0, 5)
          .join('; ')}.`,
        evidence: { path: 'tools[].description', tools: poisoned.slice(0, 20) },
        capabilities: ['prompt_injection'],
      },
    ];
  },
});

export const R17 = defineRule({
  id: 'R17',
  title: 'Shell or code execution capability',
  severity: 'high',
  weight: 35,
  category: 'capability',
  rationale: 'Tools that run shell commands or code give the model arbitrary execution.',
  remediation: 'Run in a sandbox with an allow-list and human approval.',
  attack_techniques: ['AML.T0050', 'AML.T0053'],
  references: ['§3 R17 (+ npm install scripts that run a shell, confidence 0.6)'],
  evaluate(ctx) {
    const { offensive, recon, infra, shell, shellServers } = toolSignals(ctx);
    const out: Emission[] = [];
    if (offensive.length)
      out.push({
        title: 'Offensive-security tooling exposed to an agent',
        description: `Offensive-security tools (${offensive.slice(0, 6).join(', ')}): scanning and exploitation on the agent's command.`,
        evidence: { path: 'servers', tools: offensive.slice(0, 20) },
        capabilities: ['shell_exec', 'offensive_security'],
      });
    // reconnaissance maps and probes targets but exploits nothing: 0.6, one band below offensive tooling
    else if (recon.length)
      out.push({
        confidence: 0.6,
        title: 'Reconnaissance tooling exposed to an agent',
        description: `Reconnaissance against targets (${recon.slice(0, 6).join(', ')}): the agent maps and probes systems it names.`,
        evidence: { path: 'servers', tools: recon.slice(0, 20) },
        capabilities: ['offensive_security', 'network_egress'],
      });
    else if (infra.length && !shell.length && !shellServers.length)
      out.push({
        confidence: 0.6,
        title: 'Infrastructure control (container, cluster, remote shell or network device)',
        description: `Servers named for ${infra.join(', ')}: exec into containers, clusters or hosts, or change network device policy.`,
        evidence: { path: 'servers', systems: infra },
        capabilities: ['shell_exec'],
      });
    if (shell.length || shellServers.length)
      out.push({
        confidence: shell.length ? 1 : 0.6,
        description: `Shell/code execution via ${[...shell, ...shellServers].slice(0, 5).join(', ')}.`,
        evidence: { path: 'tools', tools: shell.slice(0, 20), servers: shellServers },
        capabilities: ['shell_exec'],
      });
    for (const [k, v] of Object.entries(ctx.p.scripts)) {
      if (INSTALL_HOOK.test(k) && INSTALL_SHELL.test(v))
        out.push({
          confidence: 0.6,
          description: `npm ${k} script runs ${truncate(v, 80)}.`,
          evidence: { path: `scripts.${k}`, script: truncate(v, 200) },
          capabilities: ['shell_exec'],
        });
    }
    // offensive tooling packaged in a container (image names, RUN lines)
    const packaged = (ctx.p.containers ?? [])
      .flatMap((c) => [c.image ?? '', ...c.commands])
      .map((t) => OFFENSIVE_TOOLS.exec(t)?.[0])
      .filter((x): x is string => !!x);
    if (packaged.length)
      out.push({
        title: 'Offensive-security tooling packaged for an agent',
        description: `Packages offensive-security tools (${uniq(packaged.map((x) => x.toLowerCase()))
          .slice(0, 6)
          .join(', ')}).`,
        evidence: { path: 'image', tools: uniq(packaged.map((x) => x.toLowerCase())).slice(0, 20) },
        capabilities: ['shell_exec', 'offensive_security'],
      });
    return out;
  },
});

export const R18 = defineRule({
  id: 'R18',
  title: 'Filesystem write/delete or repository manipulation',
  severity: 'high',
  weight: 35,
  category: 'capability',
  rationale: 'Write/delete/commit tools can destroy or tamper with data; read-only file access is medium.',
  remediation: 'Restrict allowed directories, require confirmation for destructive tools.',
  attack_techniques: ['AML.T0101', 'AML.T0098'],
  references: ['§3 R18'],
  evaluate(ctx) {
    const { fsWrite, fsServers, fsRead, broadRoots, cloudDocuments, mailFolders, destructive, irreversible } =
      toolSignals(ctx);
    // a launch flag that grants write access to the whole file system or a home directory (`--allow-write /`, Deno's
    // unscoped `-A`) is the broadest filesystem scope whatever the tools are called (docs/enrichment.md "Launch
    // semantics")
    const grants = launches(ctx.p)
      .map((l) => ({ path: l.path, grant: broadWriteGrant(l) }))
      .filter((g): g is { path: string; grant: string } => g.grant !== null);
    if (grants.length)
      return [
        {
          title: 'Write access to the whole file system or a home directory',
          description: `The launch grants write access to ${grants[0]!.grant}.`,
          evidence: { path: grants[0]!.path, grants: grants.slice(0, 10) },
          capabilities: ['filesystem_write', 'filesystem_read'],
        },
      ];
    // file tools on a cloud document store change the account's documents (versioned, recoverable), not the host:
    // one band lower than local filesystem writes
    // (so do folder tools of a mail server: its folders are mailboxes)
    const local = fsWrite.length > 0 && !((cloudDocuments || mailFolders) && fsServers.length === 0);
    if (fsWrite.length || fsServers.length)
      return [
        {
          confidence: local || broadRoots.length ? 1 : 0.6,
          ...(broadRoots.length ? { title: 'Filesystem access rooted at a home directory or the root' } : {}),
          ...(fsWrite.length && !local
            ? { title: cloudDocuments ? 'File changes in a cloud document store' : 'Mailbox folder changes' }
            : {}),
          description: `Filesystem write or repository manipulation via ${[...fsWrite, ...fsServers].slice(0, 5).join(', ')}.`,
          evidence: {
            path: 'tools',
            tools: fsWrite.slice(0, 20),
            servers: fsServers,
            broad_roots: broadRoots.slice(0, 10),
          },
          capabilities: ['filesystem_write', 'filesystem_read'],
        },
      ];
    // destructive operations on things other than files (apps, records, instances): the tool name says what it
    // destroys; 0.6, one band below a filesystem write
    if (destructive.length)
      return [
        {
          // a tool that says itself that its deletion is permanent is no guess from a name: full confidence
          confidence: irreversible.length ? 1 : 0.6,
          title: 'Destructive operations',
          description: `Tools that delete or irreversibly change data: ${destructive.slice(0, 5).join(', ')}.`,
          evidence: { path: 'tools', tools: destructive.slice(0, 20) },
          capabilities: ['destructive_operations'],
        },
      ];
    if (fsRead.length)
      return [
        {
          severity: 'medium',
          title: 'Read-only filesystem access',
          description: `Read-only file access via ${fsRead.slice(0, 5).join(', ')}.`,
          evidence: { path: 'tools', tools: fsRead.slice(0, 20) },
          capabilities: ['filesystem_read'],
        },
      ];
    return [];
  },
});

export const R19 = defineRule({
  id: 'R19',
  title: 'Network egress, browser or payment capability',
  severity: 'medium',
  weight: 15,
  category: 'capability',
  rationale: 'Fetch/browser/payment tools allow exfiltration and open-world side effects.',
  remediation: 'Restrict egress with an allow-list; require approval for transactions.',
  attack_techniques: ['AML.T0086'],
  references: ['§3 R19'],
  evaluate(ctx) {
    const { messaging, net, netServers, pay } = toolSignals(ctx);
    const out: Emission[] = [];
    if (messaging.length)
      out.push({
        confidence: 0.8,
        title: 'Messaging capability',
        description: `Sends messages to people outside the session (${messaging.join(', ')}).`,
        evidence: { path: 'servers', systems: messaging },
        capabilities: ['messaging'],
      });
    if (net.length || netServers.length || pay.length)
      out.push({
        confidence: net.length || pay.length ? 1 : 0.6,
        description: `Network egress${pay.length ? ' / payments' : ''} via ${[...net, ...pay, ...netServers].slice(0, 5).join(', ')}.`,
        evidence: { path: 'tools', tools: uniq([...net, ...pay]).slice(0, 20), servers: netServers },
        capabilities: uniq(['network_egress', ...(pay.length ? ['payments'] : [])]),
      });
    const ext = ctx.p.extension;
    const broad = ext ? uniq([...ext.host_permissions, ...ext.content_script_matches].filter(isBroadHostPattern)) : [];
    // access to a few named sites: the extension reads and changes what the user types and sees there (a privacy note,
    // low), far short of every site
    const named = ext && !broad.length ? uniq([...ext.host_permissions, ...ext.content_script_matches]) : [];
    if (ext && named.length)
      out.push({
        severity: 'low',
        title: 'Reads and changes pages on named sites',
        description: `The extension runs on ${named.length} site pattern(s): ${named.slice(0, 3).join(', ')}.`,
        evidence: { path: 'host_permissions', patterns: named.slice(0, 20), manifest_version: ext.manifest_version },
        capabilities: ['browser'],
      });
    if (ext && broad.length)
      out.push({
        title: 'Broad host permissions',
        description: `The extension can read and change every site (${broad.slice(0, 3).join(', ')}${
          ext.content_script_matches.some(isBroadHostPattern) ? '; content script on every page' : ''
        }).`,
        evidence: { path: 'host_permissions', patterns: broad.slice(0, 20), manifest_version: ext.manifest_version },
        capabilities: ['browser', 'network'],
      });
    return out;
  },
});

export const R26 = defineRule({
  id: 'R26',
  title: 'Tools without annotations',
  severity: 'informational',
  weight: 0,
  category: 'capability',
  rationale:
    'Absent annotations default to destructive + open-world per the MCP spec, so a client already treats such tools conservatively; annotations are untrusted hints either way. Recorded for transparency with weight 0: in the corpus calibration 0 of 4 firings were a risk the reviewer named (c018/c021/c022 benign MCPB and tool lists).',
  remediation: 'Ask the publisher to annotate tools; treat them as destructive.',
  attack_techniques: ['AML.T0053'],
  references: ['§3 R26 (+ AML.T0053)'],
  evaluate(ctx) {
    const { unannotated } = toolSignals(ctx);
    if (!unannotated.length) return [];
    return [
      {
        description: `${unannotated.length} tool(s) have no annotations (defaults: destructive, open-world).`,
        evidence: { path: 'tools[].annotations', tools: unannotated.slice(0, 30), count: unannotated.length },
      },
    ];
  },
});

export const R27 = defineRule({
  id: 'R27',
  title: 'Code-executing LLM chain referenced',
  severity: 'high',
  weight: 35,
  category: 'capability',
  rationale: 'LLMMathChain, PALChain, PythonREPLTool, PandasQueryEngine execute model output (CVE-2023-29374 etc.).',
  remediation: 'Replace with sandboxed execution or remove the chain.',
  attack_techniques: ['AML.T0050', 'AML.T0051'],
  references: ['§3 R27'],
  evaluate({ raw, input }) {
    const chains = raw ? uniq([...raw.matchAll(CODE_CHAINS)].map((m) => m[1] ?? '')) : [];
    if (!chains.length) return [];
    const t = input.asset_type;
    return [
      {
        confidence: t === 'agent' || t === 'package' || t === 'application' ? 1 : 0.6,
        description: `References code-executing chains: ${chains.join(', ')}.`,
        evidence: { path: 'raw_manifest', chains },
        capabilities: ['code_execution'],
      },
    ];
  },
});
