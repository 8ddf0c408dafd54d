// MCP tool drift ("rug pull", docs/drift.md): an observation's tools compared with the asset's baseline — the first
// definition seen of each tool name, passed in by the caller (RuleContext.baseline). Without a baseline (the first
// observation that declares tools) none of these rules fires. A later observation that restores the baseline
// definitions clears every finding here, since findings are recomputed from the current content each time.
import { bareToolName, type BaselineTool, type ToolCapability, type ToolFingerprint } from '../drift';
import { defineRule, type Emission, type RuleContext } from './define';
import { KNOWN_TOOLS, knownServers } from './signals/servers';

/** Findings per rule and observation (a server that rewrote every tool is one story, not 500 findings). */
const MAX_EMISSIONS = 20;
const RUG_PULL = 'AML.T0109';

/** The before/after of one tool, as evidence shows it (description and schema are already redacted). */
const shown = (t: ToolFingerprint) => ({ name: t.name, description: t.description, input_schema: t.input_schema });

function baselineOf(ctx: RuleContext): Map<string, BaselineTool> | null {
  const tools = ctx.baseline?.tools ?? [];
  return tools.length ? new Map(tools.map((t) => [t.name, t])) : null;
}

export const R30 = defineRule({
  id: 'R30',
  title: 'Tool definition changed since first seen',
  severity: 'medium',
  weight: 15,
  category: 'tool_drift',
  rationale:
    'A tool whose description or input schema differs from the definition first seen for the asset was changed after it was approved ("rug pull"): the new text steers the agent without a new install.',
  remediation:
    'Review the new definition against the old one; pin the server version and re-approve its tools, or remove the server.',
  attack_techniques: [RUG_PULL, 'AML.T0110'],
  references: ['docs/drift.md'],
  evaluate(ctx) {
    const base = baselineOf(ctx);
    if (!base) return [];
    const out: Emission[] = [];
    for (const t of ctx.tools) {
      const b = base.get(t.name);
      if (!b || b.hash === t.hash) continue;
      const changed = [
        ...(b.description_hash !== t.description_hash ? ['description'] : []),
        ...(b.schema_hash !== t.schema_hash ? ['input_schema'] : []),
      ];
      out.push({
        description: `Tool ${t.name}: ${changed.join(' and ')} changed since the definition first seen for this asset.`,
        evidence: { path: 'tools', tool: t.name, changed, before: shown(b), after: shown(t) },
        capabilities: ['tool_drift'],
      });
      if (out.length === MAX_EMISSIONS) break;
    }
    return out;
  },
});

export const R31 = defineRule({
  id: 'R31',
  title: 'Tool renamed with an identical input schema',
  severity: 'medium',
  weight: 15,
  category: 'tool_drift',
  rationale:
    'A tool that disappears while a tool with the same input schema appears under a new name is the same tool renamed: a rename evades approvals pinned by name.',
  remediation: 'Review the renamed tool as a new one; re-approve it by its new name or remove the server.',
  attack_techniques: [RUG_PULL],
  references: ['docs/drift.md'],
  evaluate(ctx) {
    const base = baselineOf(ctx);
    if (!base) return [];
    const present = new Set(ctx.tools.map((t) => t.name));
    // baseline tools absent now, by schema: the candidates a new name may be a rename of
    const gone = new Map<string, BaselineTool>();
    for (const b of base.values()) if (!present.has(b.name) && !gone.has(b.schema_hash)) gone.set(b.schema_hash, b);
    const out: Emission[] = [];
    for (const t of ctx.tools) {
      const old = gone.get(t.schema_hash);
      const mine = base.get(t.name);
      // the new name was first seen after the old one (or now): a restore of the old name clears it
      if (!old || (mine && mine.seq <= old.seq)) continue;
      out.push({
        description: `Tool ${old.name} was renamed ${t.name} (identical input schema).`,
        evidence: { path: 'tools', tool: t.name, renamed_from: old.name, before: shown(old), after: shown(t) },
        capabilities: ['tool_drift'],
      });
      if (out.length === MAX_EMISSIONS) break;
    }
    return out;
  },
});

/** Ids of the well-known servers the asset is itself (its names, packages and launch arguments). */
function ownServerIds(ctx: RuleContext): Set<string> {
  const { p, input } = ctx;
  const names = [
    p.name,
    p.mcp_name,
    input.name,
    input.fingerprint,
    ...p.servers.flatMap((s) => [s.identifier ?? s.name, ...s.args.filter((a) => !a.startsWith('-'))]),
  ].filter((n): n is string => !!n);
  return new Set(names.flatMap((n) => knownServers(n).map((s) => s.id)));
}

export const R32 = defineRule({
  id: 'R32',
  title: 'New tool shadows a well-known tool of another server',
  severity: 'high',
  weight: 35,
  category: 'tool_drift',
  rationale:
    'A tool added after the first observation under the name of a well-known tool of another server (read_file, fetch, git_commit…) can intercept the calls an agent means for that server ("tool shadowing").',
  remediation: 'Remove the tool or the server; never let two servers of one agent publish the same tool name.',
  attack_techniques: [RUG_PULL, 'AML.T0110'],
  references: ['docs/drift.md; src/data/mcp-servers.json `tools`'],
  evaluate(ctx) {
    const base = baselineOf(ctx);
    if (!base) return [];
    const own = ownServerIds(ctx);
    const out: Emission[] = [];
    for (const t of ctx.tools) {
      if (base.get(t.name)?.original) continue;
      const servers = (KNOWN_TOOLS.get(bareToolName(t.name)) ?? []).filter((id) => !own.has(id));
      if (!servers.length) continue;
      out.push({
        description: `New tool ${t.name} has the name of a tool of the well-known ${servers.join(', ')} server.`,
        evidence: { path: 'tools', tool: t.name, shadows: servers, before: null, after: shown(t) },
        capabilities: ['tool_drift', 'tool_shadowing'],
      });
      if (out.length === MAX_EMISSIONS) break;
    }
    return out;
  },
});

const CAPABILITY_SEVERITY: Readonly<Record<ToolCapability, 'high' | 'medium'>> = {
  credentials: 'high',
  shell: 'high',
  file: 'medium',
  network: 'medium',
};

export const R33 = defineRule({
  id: 'R33',
  title: 'Tools gained a capability since first seen',
  severity: 'high',
  weight: 35,
  category: 'tool_drift',
  rationale:
    'Tools that now reach the shell or credentials (high), files or the network (medium) where the first observed tool set did not widen what the agent can do without a new install.',
  remediation: 'Review the tools that carry the new capability; re-approve the server or remove them.',
  attack_techniques: [RUG_PULL, 'AML.T0053'],
  references: ['docs/drift.md; capability signals of R17–R19'],
  evaluate(ctx) {
    const base = baselineOf(ctx);
    if (!base) return [];
    const before = new Set([...base.values()].filter((b) => b.original).flatMap((b) => b.capabilities));
    const after = new Set(ctx.tools.flatMap((t) => t.capabilities));
    const added = (['credentials', 'shell', 'file', 'network'] as const).filter((c) => after.has(c) && !before.has(c));
    return added.map((capability) => {
      const tools = ctx.tools.filter((t) => t.capabilities.includes(capability));
      return {
        severity: CAPABILITY_SEVERITY[capability],
        description: `Capability ${capability} added since the first observation, by ${tools
          .slice(0, 5)
          .map((t) => t.name)
          .join(', ')}.`,
        evidence: {
          path: 'tools',
          capability,
          tools: tools.slice(0, MAX_EMISSIONS).map(shown),
          before: [...before].sort(),
          after: [...after].sort(),
        },
        capabilities: ['tool_drift', capability],
      };
    });
  },
});
