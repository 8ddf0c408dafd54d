// What every route under /v1/assets/{fingerprint} shares: the path parameter and the read scope.
// Fingerprints may hold `/`, `:` or `@`: clients URL-encode them and express decodes the :fingerprint
// param (a `%2F` never splits a path segment), so one plain named parameter serves every form.
import { z, ZFingerprint } from '@risk/contracts';
import { apiKey } from '../http/route';

export const ZFingerprintParams = z.object({ fingerprint: ZFingerprint });
export const readAssets = apiKey('assets:read');

/** The use case's input for an asset sub-resource: the query, the key's mode and the asset's fingerprint. */
export const ofAsset = <Q extends object>(input: {
  query: Q;
  auth: { livemode: boolean };
  params: { fingerprint: string };
}) => ({ ...input.query, livemode: input.auth.livemode, fingerprint: input.params.fingerprint });
