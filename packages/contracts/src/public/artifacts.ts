// Artifacts (docs/artifacts.md "Artifacts in the API"): the verdict of the platform's analyser on a model file's
// bytes, by their SHA-256. A verdict is a fact about the bytes, so any org reads it; who uploaded them is never part
// of the object.
import { zQueryList, zQueryOne } from '../query';
import { z } from '../zod';

/** 64 lowercase hexadecimal digits: how the API names bytes. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
/** Hashes in one look-up (the same bound as the asset look-up's keys). */
export const ARTIFACT_LOOKUP_MAX = 500;

export const ARTIFACT_VERDICTS = [
  'malicious',
  'suspicious',
  'benign',
  'invalid',
  'unscannable',
  'unsupported',
] as const;
export const ARTIFACT_STATUSES = ['scanning', 'done', 'failed'] as const;

const zSha256 = z.string().regex(SHA256_PATTERN, 'must be a SHA-256: 64 lowercase hexadecimal digits');

export const ZArtifactParams = z.object({
  sha256: zSha256.openapi({ example: '5f1e0c6a9b7d3e2f4a8c1b0d9e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f' }),
});

export const ZArtifactUploadQuery = z.strictObject({
  filename: zQueryOne(
    z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
  )
    .optional()
    .openapi({ description: 'the file name, a hint only: the format is read from the bytes, never from the name' }),
});

export const ZArtifactLookupQuery = z.strictObject({
  sha256s: zQueryList(zSha256)
    .pipe(z.array(z.string()).min(1).max(ARTIFACT_LOOKUP_MAX))
    .openapi({ description: `repeatable; 1–${ARTIFACT_LOOKUP_MAX} SHA-256 hashes (64 lowercase hex digits)` }),
});

export const ZArtifactFinding = z
  .object({
    id: z.string().openapi({ example: 'pickle.dangerous_callable' }),
    severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
    verdict: z.enum(ARTIFACT_VERDICTS).openapi({ description: 'the verdict this finding alone implies' }),
    message: z.string(),
    evidence: z.object({
      callable: z.string().optional().openapi({ description: 'module.qualname a pickle would import and call' }),
      member: z.string().optional().openapi({ description: 'archive member path (nested: outer.zip/inner.pkl)' }),
      offset: z.number().int().optional().openapi({ description: 'byte offset in the member (or the file)' }),
      excerpt: z.string().optional().openapi({ description: 'a short excerpt, at most 200 characters' }),
    }),
  })
  .openapi('ArtifactFinding');

export const ZArtifact = z
  .object({
    object: z.literal('artifact'),
    sha256: z.string(),
    size: z.number().int().openapi({ description: 'bytes' }),
    status: z.enum(ARTIFACT_STATUSES).openapi({
      description:
        'scanning: the scan has not ended (read the artifact again later); done: verdict and findings are the ' +
        "analyser's; failed: the last scan did not end (upload the bytes again)",
    }),
    format: z
      .string()
      .nullable()
      .openapi({ description: 'the format read from the bytes (pickle, pytorch_zip, safetensors, gguf, …)' }),
    verdict: z.enum(ARTIFACT_VERDICTS).nullable().openapi({ description: 'null until a scan has ended' }),
    findings: z.array(ZArtifactFinding),
    facts: z.record(z.string(), z.unknown()).openapi({ description: 'format-specific facts (callables, tensors, …)' }),
    analyser_version: z.string().nullable().openapi({ description: 'the analyser version that made the verdict' }),
    scanned_at: z.number().int().nullable().openapi({ description: 'Unix seconds the verdict was made' }),
    url: z.string(),
  })
  .openapi('Artifact');
export type Artifact = z.infer<typeof ZArtifact>;

export const ZArtifactLookupResponse = z
  .object({
    object: z.literal('artifact_lookup'),
    data: z.array(
      z
        .object({
          sha256: z.string(),
          // a union, not .nullable(): see ZLookupResult in assets.ts
          artifact: z.union([ZArtifact, z.null()]),
        })
        .openapi('ArtifactLookupResult'),
    ),
  })
  .openapi('ArtifactLookup');
export type ArtifactLookupResponse = z.infer<typeof ZArtifactLookupResponse>;

const EXAMPLE_SHA256 = '5f1e0c6a9b7d3e2f4a8c1b0d9e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f';

export const EXAMPLE_ARTIFACT: Artifact = {
  object: 'artifact',
  sha256: EXAMPLE_SHA256,
  size: 1843,
  status: 'done',
  format: 'pytorch_zip',
  verdict: 'malicious',
  findings: [
    {
      id: 'pickle.dangerous_callable',
      severity: 'critical',
      verdict: 'malicious',
      message: 'Loading calls posix.system, which runs a shell command.',
      evidence: { callable: 'posix.system', member: 'archive/data.pkl', offset: 2 },
    },
  ],
  facts: { members: ['archive/data.pkl', 'archive/version'] },
  analyser_version: 'artifacts-1.0.0',
  scanned_at: 1764410400,
  url: `/v1/artifacts/${EXAMPLE_SHA256}`,
};

export const EXAMPLE_ARTIFACT_SCANNING: Artifact = {
  ...EXAMPLE_ARTIFACT,
  status: 'scanning',
  format: null,
  verdict: null,
  findings: [],
  facts: {},
  analyser_version: null,
  scanned_at: null,
};

export const EXAMPLE_ARTIFACT_LOOKUP: ArtifactLookupResponse = {
  object: 'artifact_lookup',
  data: [
    { sha256: EXAMPLE_SHA256, artifact: EXAMPLE_ARTIFACT },
    { sha256: 'e'.repeat(64), artifact: null },
  ],
};
