// MCP tool drift ("rug pull", docs/drift.md): the fingerprint of every tool an observation declares, and the
// baseline the caller passes in (the first definition seen of each tool name, stored by the worker). Pure.
import { createHash } from 'node:crypto';
import { capString, LIMITS, storable } from './limits';
import { redactDeep } from '@risk/redaction';
import { toolCapabilities, type ToolCapability } from './rules/signals/tools';
import type { ParsedManifest } from './types';
import { stableStringify } from './util';

export type { ToolCapability } from './rules/signals/tools';

/** Tools fingerprinted per observation: every tool the parser keeps (LIMITS.tools). */
export const MAX_FINGERPRINTED_TOOLS = LIMITS.tools;

/** One tool definition as drift compares it. Description and schema are redacted (docs/security.md). */
export interface ToolFingerprint {
  /** the tool name, `server/name` when a client config or agent file names the server that declares it */
  name: string;
  /** sha256 of the canonical JSON of {name, description, input_schema} */
  hash: string;
  description_hash: string;
  /** sha256 of the canonical JSON of the input schema alone (a rename keeps it) */
  schema_hash: string;
  /** capped at LIMITS.output_string */
  description: string;
  /** storable (strings, items and depth capped) */
  input_schema: unknown;
  capabilities: ToolCapability[];
}

/** A baseline tool: the first definition seen of its name for the asset. */
export interface BaselineTool extends ToolFingerprint {
  /** seen in the asset's first observation that declared tools (its capabilities are the asset's baseline) */
  original: boolean;
  /** order in which names were first seen (a larger number was first seen later) */
  seq: number;
}

/** What the caller knows of the asset's tools from earlier observations; null or empty: this is the first. */
export interface ToolBaseline {
  tools: BaselineTool[];
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The tool's name within the asset: its server's name first when the manifest names one. */
export function toolKey(t: { name: string; server?: string }): string {
  return t.server ? `${t.server}/${t.name}` : t.name;
}

/** The bare tool name of a key (`server/name` → `name`). */
export function bareToolName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/**
 * The fingerprints of an observation's tools, first definition of each name kept, at most MAX_FINGERPRINTED_TOOLS.
 * Hashes are taken after redaction, so rotating a secret pasted in a description is not a drift (as for AI-BOMs).
 */
export function toolFingerprints(p: ParsedManifest): ToolFingerprint[] {
  const seen = new Set<string>();
  const out: ToolFingerprint[] = [];
  for (const t of p.tools.slice(0, MAX_FINGERPRINTED_TOOLS)) {
    const name = toolKey(t);
    if (seen.has(name)) continue;
    seen.add(name);
    const { description, schema } = redactDeep({ description: t.description, schema: t.inputSchema ?? null });
    const schemaJson = stableStringify(schema);
    out.push({
      name,
      hash: sha256(stableStringify({ name, description, input_schema: schema })),
      description_hash: sha256(description),
      schema_hash: sha256(schemaJson),
      description: capString(description, LIMITS.output_string),
      input_schema: storable(schema, { maxItems: LIMITS.evidence_items, maxDepth: LIMITS.output_depth }),
      capabilities: toolCapabilities({ ...t, description }),
    });
  }
  return out;
}

/** Union of several observations' tools by name, the first list's definition winning (the primary's). */
export function mergeToolFingerprints(lists: readonly ToolFingerprint[][]): ToolFingerprint[] {
  const byName = new Map<string, ToolFingerprint>();
  for (const list of lists) for (const t of list) if (!byName.has(t.name)) byName.set(t.name, t);
  return [...byName.values()];
}
