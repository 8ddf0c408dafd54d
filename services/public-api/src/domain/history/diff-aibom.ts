import { ApiError } from '@risk/common/errors';
import type { AiBomDiff } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from '../assets/get-asset';
import { diffComponents, diffFindingSnapshots, diffLineage, diffPrimaryLicense } from '@risk/db';

export interface DiffAiBomInput {
  livemode: boolean;
  fingerprint: string;
  from?: number;
  to?: number;
}

/**
 * GET /v1/assets/{fp}/aibom/diff (docs/history.md "Diffs"): `to` defaults to the current version, `from`
 * to the version before `to`. Two reads: the two AI-BOMs, then the newest history entry of each version
 * (its finding snapshot). The asset of the key's mode only.
 */
export async function diffAiBom(deps: Pick<AppDeps, 'prisma' | 'pool'>, input: DiffAiBomInput): Promise<AiBomDiff> {
  const asset = await findAssetOr404(deps, input.livemode, input.fingerprint);
  assertEnriched(asset);
  const ofAsset = { livemode: input.livemode, fingerprint: asset.fingerprint };
  const current = asset.current_aibom_id
    ? await deps.prisma.aiBom.findFirst({
        where: { id: asset.current_aibom_id, ...ofAsset },
        select: { bom_version: true },
      })
    : null;
  const to = input.to ?? current?.bom_version;
  if (to === undefined) throw missing('to', `Asset '${asset.fingerprint}' has no AI-BOM.`);
  const from = input.from ?? to - 1;
  if (from === to)
    throw new ApiError('parameter_invalid', { param: 'from', message: 'from and to name the same version.' });
  if (from < 1) throw missing('from', `Asset '${asset.fingerprint}' has only one AI-BOM version.`);
  const boms = await deps.prisma.aiBom.findMany({
    where: { ...ofAsset, bom_version: { in: [from, to] } },
    select: { bom_version: true, components: true, lineage: true },
  });
  const a = boms.find((b) => b.bom_version === from);
  const b = boms.find((x) => x.bom_version === to);
  if (!a) throw missing('from', `No AI-BOM version ${from} for asset '${asset.fingerprint}'.`);
  if (!b) throw missing('to', `No AI-BOM version ${to} for asset '${asset.fingerprint}'.`);
  const entries = await deps.prisma.assetHistory.findMany({
    where: { ...ofAsset, bom_version: { in: [from, to] } },
    orderBy: { id: 'desc' },
    distinct: ['bom_version'],
    select: { bom_version: true, findings: true },
  });
  const ha = entries.find((e) => e.bom_version === from);
  const hb = entries.find((e) => e.bom_version === to);
  const componentsA = (a.components ?? []) as Array<Record<string, unknown>>;
  const componentsB = (b.components ?? []) as Array<Record<string, unknown>>;
  return {
    object: 'aibom_diff',
    fingerprint: asset.fingerprint,
    from_version: from,
    to_version: to,
    components: diffComponents(componentsA, componentsB),
    lineage: diffLineage(a.lineage, b.lineage),
    primary_license: diffPrimaryLicense(componentsA, componentsB),
    findings: ha && hb ? diffFindingSnapshots(ha.findings, hb.findings) : null,
  };
}

function missing(param: string, message: string): ApiError {
  return new ApiError('resource_missing', { param, message });
}
