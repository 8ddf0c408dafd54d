// Artifact uploads (docs/artifacts.md "Artifacts in the API"): POST /v1/artifacts takes the file's bytes as an
// application/octet-stream body, which openapi-fetch would otherwise serialise as JSON. The transport adds the
// Idempotency-Key (the route is in the generated idempotent POSTs), so a retried upload replays its first answer.
import type { RiskClient } from './client';
import type { components, paths } from './generated/public-api';

export type Artifact = components['schemas']['Artifact'];

/** Uploads a model file and returns its artifact (`status: 'scanning'` when the scan outlived the server's wait). */
export async function uploadArtifact(
  client: RiskClient<paths>,
  bytes: Uint8Array | Blob,
  options: { filename?: string } = {},
): Promise<Artifact> {
  const { data } = await client.raw.POST('/v1/artifacts', {
    params: { query: options.filename === undefined ? {} : { filename: options.filename } },
    // the generated type says `string` (OpenAPI `format: binary`); fetch sends bytes or a Blob as they are
    body: bytes as unknown as string,
    bodySerializer: (body) => body,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  return data!;
}
