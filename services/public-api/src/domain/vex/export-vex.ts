import { ApiError } from '@risk/common/errors';
import type { AppDeps } from '../../deps';
import { assertEnriched, findOwnAssetOr404 } from '../assets/get-asset';
import { loadOrgViews, type OrgScope } from '../triage/org-view';
import { renderCycloneDxVex } from './cyclonedx';
import { renderOpenVex } from './openvex';
import { vexEntries } from './statements';

/**
 * GET /v1/assets/{fp}/vex (docs/triage.md "VEX export"): the key's org's triage of the asset's current
 * findings as OpenVEX 0.2.0 or CycloneDX 1.6 VEX. Only that org's states appear; other orgs' triage never.
 */
export async function exportVex(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; fingerprint: string; format: 'openvex' | 'cyclonedx'; now?: Date },
): Promise<{ contentType: string; json: Record<string, unknown> }> {
  const now = input.now ?? new Date();
  // CycloneDX names the component: the org's own name and version of the asset
  const asset = await findOwnAssetOr404(deps, input.scope, input.fingerprint);
  assertEnriched(asset);
  const [findings, bom] = await Promise.all([
    deps.prisma.finding.findMany({ where: { livemode: input.scope.livemode, fingerprint: asset.fingerprint } }),
    asset.current_aibom_id
      ? deps.prisma.aiBom.findFirst({
          where: { id: asset.current_aibom_id, livemode: input.scope.livemode },
          select: { components: true },
        })
      : null,
  ]);
  const view = (await loadOrgViews(deps, { scope: input.scope, assets: [asset], findings })).get(asset.fingerprint)!;
  const entries = vexEntries([...view.findings.values()]);
  const components = (Array.isArray(bom?.components) ? bom.components : []) as Array<Record<string, unknown>>;
  const primary = components.find((c) => c.primary === true);
  const purl = typeof primary?.purl === 'string' ? primary.purl : null;
  if (input.format === 'cyclonedx')
    return {
      contentType: 'application/vnd.cyclonedx+json',
      json: renderCycloneDxVex({ asset, purl, entries, now }),
    };
  // an OpenVEX document holds at least one statement (its schema: minItems 1)
  if (entries.length === 0)
    throw new ApiError('resource_missing', {
      param: 'fingerprint',
      message: 'This asset has no findings, so there is no VEX statement to make (OpenVEX needs at least one).',
    });
  return {
    contentType: 'application/json',
    json: renderOpenVex({
      author: input.scope.orgId,
      product: { id: `urn:risk:asset:${encodeURIComponent(asset.fingerprint)}`, purl },
      entries,
      now,
    }),
  };
}
