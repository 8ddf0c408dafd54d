import { ApiError } from '@risk/common/errors';
import { forEachQueryPair, queryKeyName } from '@risk/common/http';
import { LOOKUP_MAX_CANDIDATES, LOOKUP_MAX_KEYS, type LookupResponse } from '@risk/contracts';
import { normalizeAssetName } from '@risk/enrichment';
import { findAssetNameCandidates, findAssetsByExactName, readAssetsForOrg } from '@risk/db';
import type { AppDeps } from '../../deps';
import { loadAssetExpansions, type AssetExpand } from './expand';
import { loadOrgViews, readOrgViewContext, type OrgScope } from '../triage/org-view';
import { readPendingAssets } from './pending-assets';
import { renderAsset, type AssetRow } from './render';

/** The best trigram candidate of a name-only key counts as a flexible match from this similarity on. */
export const FLEXIBLE_MIN_SIMILARITY = 0.5;

export interface LookupInput {
  /** the key's mode: only assets of this mode are looked up */
  livemode: boolean;
  /** the key's org: its view (effective score, docs/triage.md) is rendered on every asset */
  orgId: string;
  fingerprints: string[];
  lookup_name: string[];
  lookup_version: string[];
  lookup_ecosystem: string[];
  lookup_fingerprint: string[];
  include_candidates: boolean;
  expand: Set<AssetExpand>;
  /**
   * The kind of each key in the order the request listed them (`fingerprints` and `lookup_name`
   * interleaved as in the URL, see lookupKeyOrder); results follow it.
   */
  order: ReadonlyArray<LookupKeyKind>;
}

export type LookupKeyKind = 'fingerprints' | 'lookup_name';

/** The kinds of the look-up keys in URL order, from the request URL (the parsed query groups them by name). */
export function lookupKeyOrder(url: string): LookupKeyKind[] {
  const q = url.indexOf('?');
  const order: LookupKeyKind[] = [];
  forEachQueryPair(q === -1 ? '' : url.slice(q + 1), (rawKey) => {
    const key = queryKeyName(rawKey);
    if (key === 'fingerprints' || key === 'lookup_name') order.push(key);
  });
  return order;
}

interface NameKey {
  index: number;
  name: string;
  normalized: string;
  version: string | null;
  ecosystem: string | null;
  fingerprint: string | null;
}

const blankToNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

/** The spec's look-up rules 1–3; throws the 400 naming the offending parameter. */
export function validateLookup(input: LookupInput): NameKey[] {
  const names = input.lookup_name;
  for (const param of ['lookup_version', 'lookup_ecosystem', 'lookup_fingerprint'] as const) {
    const values = input[param];
    if (values.length === 0) continue;
    if (names.length === 0) {
      throw new ApiError('missing_required_param', {
        param: 'lookup_name',
        message: `lookup_name is required when ${param} is used (lookup_* values are matched by position).`,
      });
    }
    if (values.length !== names.length) {
      throw new ApiError('parameter_invalid', {
        param,
        message: `${param} has ${values.length} values but lookup_name has ${names.length}; lookup_* lists are matched by position (send an empty value for "any").`,
      });
    }
  }
  const total = input.fingerprints.length + names.length;
  if (total === 0) {
    throw new ApiError('missing_required_param', {
      param: 'fingerprints',
      message: 'Send at least one fingerprints or lookup_name value.',
    });
  }
  if (total > LOOKUP_MAX_KEYS) {
    throw new ApiError('parameter_invalid', {
      param: input.fingerprints.length > 0 ? 'fingerprints' : 'lookup_name',
      message: `At most ${LOOKUP_MAX_KEYS} fingerprints and lookup keys in all; got ${total}.`,
    });
  }
  return names.map((name, i) => ({
    index: i,
    name,
    normalized: normalizeAssetName(name),
    version: blankToNull(input.lookup_version[i]),
    ecosystem: blankToNull(input.lookup_ecosystem[i]),
    fingerprint: blankToNull(input.lookup_fingerprint[i]),
  }));
}

/**
 * GET /v1/assets/lookup. A constant number of queries whatever the key count: exact name matches for
 * every name key in one statement (unnest), trigram candidates for every key that needs them in one
 * statement (LATERAL join), all assets in one read (a primary-key probe per key), then one query per expansion.
 */
export async function lookupAssets(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: LookupInput,
): Promise<LookupResponse> {
  const keys = validateLookup(input);
  if (input.order.length !== input.fingerprints.length + keys.length)
    throw new Error('look-up: the key order does not match the parsed key lists');

  const exactByKey = await findAssetsByExactName(deps.pool, { livemode: input.livemode, keys });

  // candidates: every name key when asked for; otherwise only name-alone keys without an exact match
  const nameAlone = (k: NameKey) => k.version === null && k.ecosystem === null && k.fingerprint === null;
  const trigramKeys = keys.filter(
    (k) => k.normalized !== '' && (input.include_candidates || (nameAlone(k) && !exactByKey.has(k.index))),
  );
  const candidatesByKey = new Map<number, Array<{ fingerprint: string; similarity: number }>>();
  if (trigramKeys.length > 0) {
    const rows = await findAssetNameCandidates(deps.pool, {
      livemode: input.livemode,
      keys: trigramKeys,
      limit: LOOKUP_MAX_CANDIDATES,
    });
    for (const r of rows) {
      const list = candidatesByKey.get(r.idx) ?? [];
      list.push({ fingerprint: r.fingerprint, similarity: Math.round(r.sim * 10_000) / 10_000 });
      candidatesByKey.set(r.idx, list);
    }
  }

  const wanted = new Set<string>([
    ...input.fingerprints,
    ...keys.flatMap((k) => (k.fingerprint ? [k.fingerprint] : [])),
    ...exactByKey.values(),
    ...[...candidatesByKey.values()].flat().map((c) => c.fingerprint),
  ]);
  const scope = { orgId: input.orgId, livemode: input.livemode };
  const assets = new Map((await readAssets(deps, scope, [...wanted])).map((a) => [a.fingerprint, a]));
  // a fingerprint key whose bulk signal is accepted but not projected yet finds its pending asset (pending-assets.ts)
  const unseen = [...input.fingerprints, ...keys.flatMap((k) => (k.fingerprint ? [k.fingerprint] : []))].filter(
    (fp) => !assets.has(fp),
  );
  if (unseen.length > 0) {
    const pending = await readPendingAssets(deps, {
      scope,
      fingerprints: unseen,
    });
    for (const [fp, row] of pending) assets.set(fp, row);
    // read again what is still unseen: a projection may have committed between the two reads
    const still = unseen.filter((fp) => !assets.has(fp));
    if (still.length > 0) for (const a of await readAssets(deps, scope, still)) assets.set(a.fingerprint, a);
  }

  type Resolved = { match: 'exact' | 'fingerprint' | 'flexible' | 'none'; asset: AssetRow | null };
  const fingerprintResults: Resolved[] = input.fingerprints.map((fp) => {
    const a = assets.get(fp);
    return a ? { match: 'exact', asset: a } : { match: 'none', asset: null };
  });
  const nameResults: Resolved[] = keys.map((k) => {
    const exact = exactByKey.get(k.index);
    if (exact && assets.has(exact)) return { match: 'exact', asset: assets.get(exact)! };
    if (k.fingerprint && assets.has(k.fingerprint)) return { match: 'fingerprint', asset: assets.get(k.fingerprint)! };
    const best = candidatesByKey.get(k.index)?.[0];
    if (nameAlone(k) && best && best.similarity >= FLEXIBLE_MIN_SIMILARITY && assets.has(best.fingerprint)) {
      return { match: 'flexible', asset: assets.get(best.fingerprint)! };
    }
    return { match: 'none', asset: null };
  });

  const matched = [
    ...new Map(
      [...fingerprintResults, ...nameResults].flatMap((r) =>
        r.asset ? [[r.asset.fingerprint, r.asset] as const] : [],
      ),
    ).values(),
  ];
  // the org's view of every asset rendered (matches and candidates) in one batch (docs/triage.md); its rules and
  // triage rows are read once, for these views and for the matched assets' expanded findings
  const context = await readOrgViewContext(deps, scope, { fingerprints: [...assets.keys()] });
  const views = await loadOrgViews(deps, { scope, assets: [...assets.values()], context });
  const expansions = await loadAssetExpansions(deps, {
    scope,
    assets: matched,
    expand: input.expand,
    views,
    context,
  });
  const render = (a: AssetRow | null) => (a ? renderAsset(a, expansions.get(a.fingerprint)) : null);

  const fingerprintResult = (i: number) => {
    const fp = input.fingerprints[i]!;
    return {
      object: 'lookup_result' as const,
      key: { fingerprint: fp, name: null, version: null, ecosystem: null },
      match: fingerprintResults[i]!.match,
      asset: render(fingerprintResults[i]!.asset),
    };
  };
  const nameResult = (i: number) => {
    const k = keys[i]!;
    return {
      object: 'lookup_result' as const,
      key: { fingerprint: k.fingerprint, name: k.name, version: k.version, ecosystem: k.ecosystem },
      match: nameResults[i]!.match,
      asset: render(nameResults[i]!.asset),
      ...(input.include_candidates
        ? {
            candidates: (candidatesByKey.get(k.index) ?? []).flatMap((c) => {
              const a = assets.get(c.fingerprint);
              return a
                ? [
                    {
                      similarity: c.similarity,
                      asset: renderAsset(a, {
                        effective: views.get(a.fingerprint)!.effective,
                      }),
                    },
                  ]
                : [];
            }),
          }
        : {}),
    };
  };
  // one result per key, in request order
  let f = 0;
  let n = 0;
  return {
    object: 'asset_lookup',
    data: input.order.map((kind) => (kind === 'fingerprints' ? fingerprintResult(f++) : nameResult(n++))),
  };
}

/** The assets of the fingerprints, with the org's own fields: one primary-key probe each (readAssetsForOrg). */
async function readAssets(deps: Pick<AppDeps, 'pool'>, scope: OrgScope, fingerprints: string[]): Promise<AssetRow[]> {
  return readAssetsForOrg(deps.pool, { livemode: scope.livemode, orgId: scope.orgId, fingerprints });
}
