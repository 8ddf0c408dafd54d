import type { ApiKeyPrincipal, ListEnvelope } from '@risk/common/http';
import type { Threat } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { listThreatsForAsset } from '../threats/list-threats';
import { assertEnriched, findAssetOr404 } from './get-asset';

export interface ListAssetThreatsInput {
  auth: ApiKeyPrincipal;
  fingerprint: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/** GET /v1/assets/{fingerprint}/threats: the threats the shared matching rule (@risk/db's threats store) finds. */
export async function listAssetThreats(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: ListAssetThreatsInput,
): Promise<ListEnvelope<Threat>> {
  const asset = await findAssetOr404(deps, input.auth.livemode, input.fingerprint);
  assertEnriched(asset);
  const page = await listThreatsForAsset(deps.prisma, asset.fingerprint, {
    limit: input.limit,
    starting_after: input.starting_after,
    ending_before: input.ending_before,
    livemode: input.auth.livemode,
  });
  // the asset exists (checked above), so the page is never null
  return page!;
}
