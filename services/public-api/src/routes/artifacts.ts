import { defineRoute } from '@risk/common/http';
import {
  ARTIFACT_LOOKUP_MAX,
  EXAMPLE_ARTIFACT,
  EXAMPLE_ARTIFACT_LOOKUP,
  EXAMPLE_ARTIFACT_SCANNING,
  ZArtifact,
  ZArtifactLookupQuery,
  ZArtifactLookupResponse,
  ZArtifactParams,
  ZArtifactUploadQuery,
} from '@risk/contracts';
import { getArtifact, lookupArtifacts } from '../domain/artifacts/read-artifacts';
import { uploadArtifact } from '../domain/artifacts/upload-artifact';
import { apiKey } from '../http/route';

// Artifacts (docs/artifacts.md "Artifacts in the API"): a model file's bytes uploaded and scanned, and the verdict
// read back by SHA-256 by any org (the verdict is a fact about the bytes; who uploaded them is never shown).

const readArtifacts = apiKey('artifacts:read');

const artifactJson = (description: string, example: unknown) => ({
  description,
  content: { 'application/json': { schema: ZArtifact, example } },
});

export const artifactRoutes = [
  defineRoute({
    method: 'post',
    path: '/artifacts',
    auth: apiKey('artifacts:write'),
    query: ZArtifactUploadQuery,
    streamBody: {
      mediaType: 'application/octet-stream',
      description: 'the file, byte for byte (streamed: it is never held in memory; ARTIFACTS_MAX_BYTES caps it)',
    },
    idempotency: 'middleware',
    doc: {
      // the body is raw bytes: the example stands for them
      examples: { request: '<the bytes of pytorch_model.bin>', response: EXAMPLE_ARTIFACT },
      summary: 'Upload a model file and scan it (scope artifacts:write)',
      description:
        'The body is the file itself (`Content-Type: application/octet-stream`); `filename` is a hint only (the format ' +
        'is read from the bytes). 200: these bytes were scanned before by this analyser version, or were re-scanned; ' +
        '201: first scan of these bytes; 202 `status: scanning`: the scan outlived ARTIFACTS_SCAN_WAIT_MS and goes on ' +
        '(read GET /v1/artifacts/{sha256} later). Over ARTIFACTS_MAX_BYTES: 413 request_too_large. The Idempotency-Key ' +
        'is claimed before the bytes are read: a replay answers the first response without reading the body again. ' +
        'Uploads in flight are capped per org across replicas (ARTIFACTS_SCANS_PER_ORG: 429 rate_limited) and per ' +
        'replica (ARTIFACTS_SCANS_PER_REPLICA: 503 service_unavailable), both with Retry-After; a scan past its CPU ' +
        'budget (ARTIFACTS_SCAN_CPU_MS) is `unscannable`.',
      response: { description: 'the artifact, judged before', schema: ZArtifact },
      errors: [503],
      otherResponses: {
        201: artifactJson('the artifact, scanned for the first time', EXAMPLE_ARTIFACT),
        202: artifactJson('the scan goes on (status scanning)', EXAMPLE_ARTIFACT_SCANNING),
      },
    },
    handler: ({ deps, auth, requestId, query, req }) =>
      uploadArtifact(deps, {
        orgId: auth.org_id,
        livemode: auth.livemode,
        requestId,
        body: req,
        filename: query.filename,
        idempotencyKey: req.get('idempotency-key'),
      }),
  }),
  // literal path before /artifacts/:sha256
  defineRoute({
    method: 'get',
    path: '/artifacts/lookup',
    auth: readArtifacts,
    query: ZArtifactLookupQuery,
    doc: {
      examples: { response: EXAMPLE_ARTIFACT_LOOKUP },
      summary: `Look up the verdicts of 1–${ARTIFACT_LOOKUP_MAX} artifacts by SHA-256 (scope artifacts:read)`,
      description:
        'One result per sha256s value, in the order given (repeat the parameter: ?sha256s=…&sha256s=…); `artifact` ' +
        'is null for bytes the platform has not scanned. Any org reads any verdict; uploaders are never shown.',
      response: { description: 'the look-up results', schema: ZArtifactLookupResponse },
    },
    handler: ({ deps, query }) => lookupArtifacts(deps, query.sha256s),
  }),
  defineRoute({
    method: 'get',
    path: '/artifacts/:sha256',
    auth: readArtifacts,
    params: ZArtifactParams,
    doc: {
      examples: { response: EXAMPLE_ARTIFACT },
      summary: 'Retrieve the verdict on some bytes by their SHA-256 (scope artifacts:read)',
      description:
        'The platform\'s own verdict on these bytes, shared by every org (docs/artifacts.md "Sharing rule"); which ' +
        'org uploaded them is never shown. 404 for bytes never uploaded; 400 for a malformed hash.',
      response: { description: 'the artifact', schema: ZArtifact },
      errors: [404],
    },
    handler: ({ deps, params }) => getArtifact(deps, params.sha256),
  }),
];
