import { defineRoute, RawResponse } from '@risk/common/http';
import {
  z,
  ZFindingTriageResult,
  ZScoreExplanation,
  ZTriageBody,
  ZTriageParams,
  ZVexContent,
  ZVexQuery,
  EXAMPLE_FINDING_TRIAGE,
  EXAMPLE_OPENVEX,
  EXAMPLE_SCORE_EXPLANATION,
  EXAMPLE_TRIAGE_BODY,
} from '@risk/contracts';
import { explainScore } from '../domain/triage/explain-score';
import { getTriage } from '../domain/triage/get-triage';
import { setTriage } from '../domain/triage/set-triage';
import { exportVex } from '../domain/vex/export-vex';
import { apiKey } from '../http/route';
import { ZFingerprintParams, readAssets } from './asset-params';

// Per-org triage of an asset's findings, the score explanation and the VEX export (docs/triage.md).
// Writes need assets:triage; reads need assets:read, so keys minted before the scope existed keep reading.
const triageAssets = apiKey('assets:triage');
const scopeOf = (auth: { org_id: string; livemode: boolean }) => ({ orgId: auth.org_id, livemode: auth.livemode });

export const triageRoutes = [
  defineRoute({
    method: 'post',
    path: '/assets/:fingerprint/findings/:finding_id/triage',
    auth: triageAssets,
    params: ZTriageParams,
    body: ZTriageBody,
    idempotency: 'middleware',
    doc: {
      examples: { request: EXAMPLE_TRIAGE_BODY, response: EXAMPLE_FINDING_TRIAGE },
      summary: "Set the org's analysis state of a finding (scope assets:triage)",
      description:
        'open, acknowledged, false_positive, not_affected (with a VEX justification), accepted_risk (with expires_at) or resolved, ' +
        "with a comment. Visible to the key's org in the key's mode only; it follows the finding across enrichments. " +
        'false_positive, not_affected and in-date accepted_risk leave the effective score (docs/triage.md).',
      response: { description: "the finding's triage and its history", schema: ZFindingTriageResult },
      errors: [404],
    },
    handler: ({ deps, auth, params, body }) =>
      setTriage(deps, {
        scope: scopeOf(auth),
        keyId: auth.key_id,
        fingerprint: params.fingerprint,
        findingId: params.finding_id,
        body,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/findings/:finding_id/triage',
    auth: readAssets,
    params: ZTriageParams,
    query: z.strictObject({}),
    doc: {
      examples: { response: EXAMPLE_FINDING_TRIAGE },
      summary: "The org's analysis state of a finding and its history (scope assets:read)",
      response: { description: "the finding's triage and its history", schema: ZFindingTriageResult },
      errors: [404],
    },
    handler: ({ deps, auth, params }) =>
      getTriage(deps, { scope: scopeOf(auth), fingerprint: params.fingerprint, findingId: params.finding_id }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/score',
    auth: readAssets,
    params: ZFingerprintParams,
    query: z.strictObject({}),
    doc: {
      examples: { response: EXAMPLE_SCORE_EXPLANATION },
      summary: "Explain an asset's score: every factor's contribution, evidence and the formula (scope assets:read)",
      description:
        "The engine's own computation over the stored findings, as shared (intrinsic) and as the key's org sees it " +
        '(effective: suppressed, false_positive, not_affected and in-date accepted_risk findings left out, severity overrides applied). ' +
        'The integer contributions sum to the score.',
      response: { description: 'the score explanation', schema: ZScoreExplanation },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => explainScore(deps, { scope: scopeOf(auth), fingerprint: params.fingerprint }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/vex',
    auth: readAssets,
    params: ZFingerprintParams,
    query: ZVexQuery,
    doc: {
      examples: { response: EXAMPLE_OPENVEX },
      summary: "The org's triage of an asset as OpenVEX 0.2.0 or CycloneDX 1.6 VEX (scope assets:read)",
      description:
        'One statement per finding (per CVE id when the finding has some, else named by its rule id). An asset without findings ' +
        'is 404 for OpenVEX (a document needs a statement) and an empty vulnerabilities list for CycloneDX.',
      response: { description: 'the VEX document', content: ZVexContent },
      errors: [404],
    },
    handler: async ({ deps, auth, params, query }) => {
      const out = await exportVex(deps, {
        scope: scopeOf(auth),
        fingerprint: params.fingerprint,
        format: query.format,
      });
      return new RawResponse(out.contentType, JSON.stringify(out.json));
    },
  }),
];
