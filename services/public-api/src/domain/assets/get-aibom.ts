import { ApiError } from '@risk/common/errors';
import type { AiBom } from '@risk/contracts';
import { buildSpdx3, renderSpdxTagValue, spdx3InputFromStored, type StoredComponent } from '@risk/enrichment';
import { readDbOf, type ReadDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from './get-asset';
import { renderAiBom } from './render';
import { aiBomForOrg, readOwnReports } from './client-reported';

export type AiBomFormat = 'json' | 'spdx_json' | 'spdx_tv' | 'cyclonedx_json' | 'spdx3_json';

export type AiBomOutput =
  | { contentType: 'application/json'; json: AiBom }
  | { contentType: 'application/spdx+json' | 'application/vnd.cyclonedx+json; version=1.6'; json: unknown }
  | { contentType: 'text/plain; charset=utf-8'; text: string };

/** The asset's current AI-BOM (the last good one for stale assets) in the requested format. */
export async function getAiBom(
  appDeps: ReadDeps,
  input: { livemode: boolean; orgId: string; fingerprint: string; format: AiBomFormat },
): Promise<AiBomOutput> {
  const deps = readDbOf(appDeps); // a download tolerates replication lag (docs/scaling.md "Read replicas")
  const asset = await findAssetOr404(deps, input.livemode, input.fingerprint);
  assertEnriched(asset);
  const [stored, reports] = await Promise.all([
    asset.current_aibom_id
      ? deps.prisma.aiBom.findFirst({ where: { id: asset.current_aibom_id, livemode: input.livemode } })
      : deps.prisma.aiBom.findFirst({
          where: { livemode: input.livemode, fingerprint: asset.fingerprint },
          orderBy: { bom_version: 'desc' },
        }),
    // the key's org's own client-reported verdicts (docs/artifacts.md "Client-reported scan results")
    readOwnReports(deps, { livemode: input.livemode, orgId: input.orgId }, [asset.fingerprint]),
  ]);
  const row = stored && aiBomForOrg(stored, reports.get(asset.fingerprint));
  if (!row)
    throw new ApiError('resource_missing', {
      param: 'fingerprint',
      message: `Asset '${asset.fingerprint}' has no AI-BOM.`,
    });
  switch (input.format) {
    case 'json':
      return { contentType: 'application/json', json: renderAiBom(row) };
    case 'spdx_json':
      return { contentType: 'application/spdx+json', json: row.spdx };
    case 'spdx3_json':
      // rendered from the stored row (docs/formats.md "SPDX 3.0.1"): AI-BOMs stored before this format render too
      return {
        contentType: 'application/spdx+json',
        json: buildSpdx3(
          spdx3InputFromStored(row.spdx as Record<string, unknown>, row.components as unknown as StoredComponent[]),
        ),
      };
    case 'spdx_tv':
      return {
        contentType: 'text/plain; charset=utf-8',
        text: renderSpdxTagValue(row.spdx as Record<string, unknown>),
      };
    case 'cyclonedx_json':
      if (!row.cyclonedx) {
        throw new ApiError('resource_missing', {
          param: 'format',
          message: `AI-BOM ${row.id} has no CycloneDX rendering.`,
        });
      }
      return { contentType: 'application/vnd.cyclonedx+json; version=1.6', json: row.cyclonedx };
  }
}
