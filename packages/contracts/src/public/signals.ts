// Signal contracts (docs/public-api.md "Signals and assets"): an immutable observation of an asset. Bodies are strict:
// unknown fields are 400 parameter_unknown; bulk item errors name the item (`signals[12].observed_at`).
import { z } from '../zod';
import { zFreeFormObject } from '../json-depth';
import { ZFingerprint } from '../fingerprint';
import { NO_CONTROL } from '../common';
import { THREAT_ASSET_TYPES } from './threats';
import { ARTIFACT_VERDICTS } from './artifacts';

/** The asset types (docs/public-api.md "Signals and assets"; @risk/enrichment's ASSET_TYPES is this list). */
export const ASSET_TYPE_VALUES = THREAT_ASSET_TYPES;
export const RAW_MANIFEST_MAX_BYTES = 1024 * 1024;
export const SIGNAL_METADATA_MAX_BYTES = 16 * 1024;
export const OBSERVED_AT_MAX_SKEW_SECONDS = 300;
export const BULK_SIGNALS_MAX = 500;
/** Files one signal may name by hash (docs/artifacts.md "Judgement"). */
export const SIGNAL_ARTIFACTS_MAX = 1000;
export const SIGNAL_ARTIFACT_PATH_MAX = 1024;
/** Findings one client-reported scan result may quote (docs/artifacts.md "Client-reported scan results"). */
export const REPORTED_FINDINGS_MAX = 10;

const zReportedText = (max: number) =>
  z.string().min(1).max(max).regex(NO_CONTROL, 'must not contain control characters');

/**
 * A scan result the client made itself (its own scanner, e.g. `risk-scan`, picklescan, ModelScan) for one named file
 * (docs/artifacts.md "Client-reported scan results"). It counts only in the reporting org's own views of the asset,
 * only while the platform has no complete verdict of its own for those bytes, and only to raise: a reported `benign`
 * changes nothing. It never enters the shared verdict of the hash (`GET /v1/artifacts/{sha256}`).
 */
export const REPORTED_SCAN_SHAPE = {
  verdict: z.enum(ARTIFACT_VERDICTS).openapi({ description: "the client's analyser's verdict for these bytes" }),
  analyser: zReportedText(100).openapi({ description: 'the analyser that made it', example: 'risk-scan' }),
  analyser_version: zReportedText(64).openapi({ description: "the analyser's version", example: '1.4.0' }),
  findings: z
    .array(
      z.strictObject({
        id: zReportedText(100).openapi({ example: 'pickle.dangerous_callable' }),
        message: zReportedText(500),
        severity: z.enum(['critical', 'high', 'medium', 'low', 'info']).optional(),
        evidence: z
          .strictObject({
            callable: zReportedText(200).optional(),
            member: zReportedText(200).optional(),
            offset: z.int('must be an integer').min(0, 'must not be negative').max(Number.MAX_SAFE_INTEGER).optional(),
            excerpt: zReportedText(200).optional(),
          })
          .optional(),
      }),
    )
    .max(REPORTED_FINDINGS_MAX, 'must hold at most 10 findings')
    .optional()
    .openapi({ description: "at most 10 of the analyser's findings, quoted as evidence" }),
};
export const ZReportedScan = z.strictObject(REPORTED_SCAN_SHAPE).openapi('ReportedScan');
export type ReportedScan = z.infer<typeof ZReportedScan>;

/**
 * One file an asset ships, named by the SHA-256 of its bytes (docs/artifacts.md "Judgement"): enrichment judges it by
 * the platform's verdict for those bytes. The hash is lower-cased before it is checked.
 */
export const ZSignalArtifact = z
  .strictObject({
    path: z
      .string()
      .min(1)
      .max(SIGNAL_ARTIFACT_PATH_MAX)
      .regex(NO_CONTROL, 'must not contain control characters')
      .openapi({
        description: "the file's path within the asset, at most 1,024 characters",
        example: 'pytorch_model.bin',
      }),
    sha256: z
      .string()
      .toLowerCase()
      .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 as 64 hex digits')
      .openapi({
        description: "SHA-256 of the file's bytes, 64 hex digits (lower-cased)",
        example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      }),
    size: z
      .int('must be an integer')
      .min(0, 'must not be negative')
      .max(Number.MAX_SAFE_INTEGER)
      .openapi({ description: 'size in bytes' }),
    reported: ZReportedScan.optional().openapi({
      description:
        "the client's own scan result for these bytes: counts only in this org's views of the asset, only while the platform has no complete verdict of its own, and never lowers anything (docs/artifacts.md)",
    }),
  })
  .openapi('SignalArtifact');
export type SignalArtifact = z.infer<typeof ZSignalArtifact>;

// the fingerprint schema lives in ../fingerprint.ts (threats and triage use it too); importers keep this path
export { ZFingerprint } from '../fingerprint';

export const ZCreateSignalBody = z
  .strictObject({
    fingerprint: ZFingerprint,
    asset_type: z.enum(ASSET_TYPE_VALUES),
    org_id: z.string().min(1).max(255).openapi({ description: "must equal the API key's org" }),
    observed_at: z
      .int('must be an integer (Unix seconds)')
      .min(0, 'must be a Unix timestamp in seconds')
      .refine(
        (v) => v <= Math.floor(Date.now() / 1000) + OBSERVED_AT_MAX_SKEW_SECONDS,
        'must not be more than 5 minutes in the future',
      )
      .openapi({ description: 'Unix seconds, at most 5 minutes in the future' }),
    name: z.string().min(1).max(512).optional(),
    version: z.string().min(1).max(256).optional(),
    source_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2048)
      .optional(),
    raw_manifest: z
      .string()
      .refine((v) => Buffer.byteLength(v) <= RAW_MANIFEST_MAX_BYTES, 'must be at most 1 MiB')
      .optional()
      .openapi({ description: 'raw manifest text (JSON, YAML, TOML or text), at most 1 MiB' }),
    metadata: zFreeFormObject(SIGNAL_METADATA_MAX_BYTES, '16 KiB')
      .optional()
      .openapi({ description: 'free-form JSON object, at most 16 KiB serialized' }),
    artifacts: z
      .array(ZSignalArtifact)
      .max(SIGNAL_ARTIFACTS_MAX, 'must hold at most 1000 artifacts')
      .optional()
      .openapi({
        description:
          "files the asset ships, named by SHA-256 (at most 1,000): enrichment judges each by the platform's verdict for those bytes (docs/artifacts.md)",
      }),
  })
  .openapi('CreateSignalBody');
export type CreateSignalBody = z.infer<typeof ZCreateSignalBody>;

export const ZCreateSignalsBulkBody = z
  .strictObject({
    signals: z
      .array(ZCreateSignalBody)
      .min(1, 'must hold at least 1 signal')
      .max(BULK_SIGNALS_MAX, 'must hold at most 500 signals'),
  })
  .openapi('CreateSignalsBulkBody');
export type CreateSignalsBulkBody = z.infer<typeof ZCreateSignalsBulkBody>;

export const ZSignal = z
  .object({
    id: z.string().openapi({ example: 'sig_01jd3q5k8m0000000000000000' }),
    object: z.literal('signal'),
    fingerprint: z.string(),
    asset_type: z.enum(ASSET_TYPE_VALUES),
    org_id: z.string(),
    observed_at: z.number().int().openapi({ description: 'Unix seconds' }),
    name: z.string().nullable(),
    version: z.string().nullable(),
    source_url: z.string().nullable(),
    raw_manifest: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    artifacts: z.array(ZSignalArtifact).nullable().openapi({ description: 'the files the signal names by hash' }),
    content_digest: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({
        description:
          'SHA-256 of the canonical JSON of {asset_type, name, version, source_url, raw_manifest, metadata} (and artifacts, when the signal names any), as 64 lowercase hex digits (no algorithm prefix)',
      }),
    livemode: z.boolean(),
    created: z.number().int().openapi({ description: 'Unix seconds' }),
  })
  .openapi('Signal');
export type Signal = z.infer<typeof ZSignal>;

export const ENRICHMENT_DECISIONS = ['queued', 'skipped'] as const;
export const ZEnrichmentDecision = z
  .object({
    status: z.enum(ENRICHMENT_DECISIONS),
    reason: z.string().openapi({
      description:
        'queued: new_asset | content_changed | enrichment_failed | ttl_expired; skipped: up_to_date | enrichment_in_progress | superseded_in_batch',
    }),
  })
  .openapi('EnrichmentDecision');

export const ZSignalAccepted = ZSignal.extend({ enrichment: ZEnrichmentDecision }).openapi('SignalAccepted');
export type SignalAccepted = z.infer<typeof ZSignalAccepted>;

/**
 * One item of the bulk 202 (docs/public-api.md "Signals and assets"): the stored signal's identity and
 * the enrichment decision, not the echoed body; the full signal is at GET /v1/signals/{id}.
 */
export const ZSignalReceipt = ZSignalAccepted.pick({
  id: true,
  object: true,
  fingerprint: true,
  content_digest: true,
  created: true,
  enrichment: true,
}).openapi('SignalReceipt');
export type SignalReceipt = z.infer<typeof ZSignalReceipt>;

export const ZSignalBatch = z
  .object({
    object: z.literal('signal_batch'),
    data: z.array(ZSignalReceipt).openapi({
      description: 'one receipt per submitted signal, in request order; GET /v1/signals/{id} has the rest',
    }),
    enrichment_queued: z
      .number()
      .int()
      .openapi({ description: 'enrichment jobs queued by this batch (one per asset at most)' }),
  })
  .openapi('SignalBatch');
export type SignalBatch = z.infer<typeof ZSignalBatch>;
