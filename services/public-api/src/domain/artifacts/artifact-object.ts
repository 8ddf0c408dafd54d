// The API's artifact object (docs/artifacts.md "Artifacts in the API"): what the platform's analyser said about some
// bytes. Built from the shared `artifacts` row only, which has no org: nothing here can name an uploader.
import type { Artifact } from '@risk/contracts';
import type { ArtifactRow } from '@risk/db';

const unixSeconds = (d: Date | null): number | null => (d === null ? null : Math.floor(d.getTime() / 1000));

export function artifactObject(row: ArtifactRow): Artifact {
  return {
    object: 'artifact',
    sha256: row.sha256,
    size: row.size,
    status: row.status,
    format: row.format,
    verdict: row.verdict,
    findings: row.findings as Artifact['findings'],
    facts: row.facts,
    analyser_version: row.analyser_version,
    scanned_at: unixSeconds(row.scanned_at),
    url: `/v1/artifacts/${row.sha256}`,
  };
}
