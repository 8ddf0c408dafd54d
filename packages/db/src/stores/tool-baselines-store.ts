import type { StoredToolBaseline } from './enrichment-rows';

/**
 * MCP tool baselines (docs/drift.md): per asset and mode, the first definition seen of every tool name, which the
 * engine compares later observations with, and the definition hash in the asset's current tool set. Read with the
 * enrichment job (a lateral of the batched job read, no query per job) and written by the enrichment writer in its
 * transaction (one statement, whatever the number of tools).
 */

/** Tool names remembered per asset; names first seen beyond it get no baseline (and are compared with nothing). */
export const TOOL_BASELINE_CAP = 1000;

/**
 * The lateral of the batched job read (enrichment-statements.ts READ_SQL): the asset's baseline, in the order
 * names were first seen. `once` is the read's filter that skips jobs with nothing to do.
 */
export function toolBaselineLateral(once: string): string {
  return `
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('name', tb.name, 'hash', tb.definition_hash,
                                        'description_hash', tb.description_hash, 'schema_hash', tb.schema_hash,
                                        'description', tb.description, 'input_schema', tb.input_schema,
                                        'capabilities', COALESCE(tb.capabilities, '{}'), 'original', tb.original,
                                        'seq', tb.seq)
                      ORDER BY tb.seq) AS tool_baseline
        FROM asset_tool_baselines tb
       WHERE tb.livemode = a.livemode AND tb.fingerprint = a.fingerprint AND ${once}
    ) tb ON true`;
}

/** The job read's column as the engine takes it (null: no earlier observation declared tools). */
export function toToolBaseline(rows: unknown): StoredToolBaseline | null {
  if (!Array.isArray(rows) || rows.length === 0) return null;
  return { tools: (rows as StoredToolBaseline['tools']).map((r) => ({ ...r, seq: Number(r.seq) })) };
}

// $1 livemode, $2 fingerprint, $3 the asset's current tools (jsonb array of ToolFingerprint), $4 now, $5 cap.
// Names absent now lose their current hash; present names get theirs; names never seen are inserted as their own
// baseline, `original` when the asset had no baseline row at all (its first observation that declared tools), in
// the order of the list (seq), up to the cap. Runs after the row lock, so concurrent jobs of one asset serialise.
export const TOOLS_WRITE_SQL = `
  WITH cur AS (
    SELECT * FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (name text, hash text, description_hash text,
      schema_hash text, description text, input_schema jsonb, capabilities jsonb)) WITH ORDINALITY
      AS t(name, hash, description_hash, schema_hash, description, input_schema, capabilities, ord)
  ),
  existing AS (SELECT count(*)::int AS n FROM asset_tool_baselines WHERE livemode = $1 AND fingerprint = $2),
  gone AS (
    UPDATE asset_tool_baselines b SET current_hash = NULL, updated = $4
     WHERE b.livemode = $1 AND b.fingerprint = $2 AND b.current_hash IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM cur WHERE cur.name = b.name)
  ),
  seen AS (
    UPDATE asset_tool_baselines b SET current_hash = cur.hash, updated = $4 FROM cur
     WHERE b.livemode = $1 AND b.fingerprint = $2 AND b.name = cur.name AND b.current_hash IS DISTINCT FROM cur.hash
  )
  INSERT INTO asset_tool_baselines (livemode, fingerprint, name, definition_hash, description_hash, schema_hash,
    description, input_schema, capabilities, original, current_hash, first_seen, updated)
  SELECT $1, $2, cur.name, cur.hash, cur.description_hash, cur.schema_hash, cur.description, cur.input_schema,
         ARRAY(SELECT jsonb_array_elements_text(cur.capabilities)), (SELECT n FROM existing) = 0, cur.hash, $4, $4
    FROM cur
   WHERE NOT EXISTS (SELECT 1 FROM asset_tool_baselines b WHERE b.livemode = $1 AND b.fingerprint = $2 AND b.name = cur.name)
   ORDER BY cur.ord
   LIMIT GREATEST(0, $5 - (SELECT n FROM existing))
  ON CONFLICT DO NOTHING`;

export const TOOLS_WRITE_TYPES = ['boolean', 'text', 'jsonb', 'timestamptz', 'int'];

/**
 * The lock read's lateral (alias `pt`): the asset's current tool set before this write (name → definition hash) and
 * whether it has any baseline, in ONE read of the asset's rows (it was two subqueries: the `EXISTS` one planned, on a
 * small table, as a subplan over a scan of the whole table). The lock read runs on its generic plan without sequential
 * scans (docs/data-access.md "Generic plans"; packages/db/test/lock-plan.test.ts), so this read is by the asset's key.
 */
export const PREVIOUS_TOOLS_LATERAL = `
  LEFT JOIN LATERAL (
    SELECT json_object_agg(tb.name, tb.current_hash) FILTER (WHERE tb.current_hash IS NOT NULL) AS prev_tools,
           count(*) > 0 AS has_tool_baseline
      FROM asset_tool_baselines tb
     WHERE tb.livemode = a.livemode AND tb.fingerprint = a.fingerprint
  ) pt ON true`;
