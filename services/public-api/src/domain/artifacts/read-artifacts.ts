// GET /v1/artifacts/{sha256} and the look-up of many (docs/artifacts.md "Sharing rule"): a verdict of the
// platform's own analyser is a fact about the bytes, so any org with artifacts:read reads it. The read is of the
// shared `artifacts` table only; `artifact_uploads` (who uploaded what) is never joined.
import { ApiError } from '@risk/common/errors';
import type { Artifact, ArtifactLookupResponse } from '@risk/contracts';
import { findArtifacts } from '@risk/db';
import type { AppDeps } from '../../deps';
import { artifactObject } from './artifact-object';

export async function getArtifact(deps: Pick<AppDeps, 'pool'>, sha256: string): Promise<Artifact> {
  const row = (await findArtifacts(deps.pool, [sha256])).get(sha256);
  if (!row) throw new ApiError('resource_missing', { param: 'sha256', message: `No such artifact: '${sha256}'.` });
  return artifactObject(row);
}

/** One result per hash, in the order asked (a hash asked twice answers twice); unknown hashes have `artifact: null`. */
export async function lookupArtifacts(deps: Pick<AppDeps, 'pool'>, sha256s: string[]): Promise<ArtifactLookupResponse> {
  const rows = await findArtifacts(deps.pool, [...new Set(sha256s)]);
  return {
    object: 'artifact_lookup',
    data: sha256s.map((sha256) => {
      const row = rows.get(sha256);
      return { sha256, artifact: row ? artifactObject(row) : null };
    }),
  };
}
