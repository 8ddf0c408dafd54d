import { defineRoute } from '@risk/common/http';
import {
  ZCreateSuppressionBody,
  ZDeletedSeverityOverride,
  ZDeletedSuppression,
  ZPutSeverityOverrideBody,
  ZSeverityOverride,
  ZSeverityOverrideList,
  ZSeverityOverrideParams,
  ZSuppression,
  ZSuppressionList,
  ZSuppressionListQuery,
  ZSuppressionParams,
  z,
  EXAMPLE_CREATE_SUPPRESSION,
  EXAMPLE_DELETED_SEVERITY_OVERRIDE,
  EXAMPLE_DELETED_SUPPRESSION,
  EXAMPLE_PUT_SEVERITY_OVERRIDE,
  EXAMPLE_SEVERITY_OVERRIDE,
  EXAMPLE_SEVERITY_OVERRIDE_LIST,
  EXAMPLE_SUPPRESSION,
  EXAMPLE_SUPPRESSION_LIST,
} from '@risk/contracts';
import { deleteSeverityOverride } from '../domain/severity-overrides/delete-severity-override';
import { listSeverityOverrides } from '../domain/severity-overrides/list-severity-overrides';
import { putSeverityOverride } from '../domain/severity-overrides/put-severity-override';
import { createSuppression } from '../domain/suppressions/create-suppression';
import { deleteSuppression } from '../domain/suppressions/delete-suppression';
import { listSuppressions } from '../domain/suppressions/list-suppressions';
import { apiKey } from '../http/route';
import { readAssets } from './asset-params';

// The org's suppression rules and severity overrides (docs/triage.md): private to the org in the key's mode.
const triageAssets = apiKey('assets:triage');
const scopeOf = (auth: { org_id: string; livemode: boolean }) => ({ orgId: auth.org_id, livemode: auth.livemode });

export const suppressionRoutes = [
  defineRoute({
    method: 'post',
    path: '/suppressions',
    auth: triageAssets,
    body: ZCreateSuppressionBody,
    idempotency: 'middleware',
    status: 201,
    doc: {
      examples: { request: EXAMPLE_CREATE_SUPPRESSION, response: EXAMPLE_SUPPRESSION },
      summary: 'Create a suppression rule (scope assets:triage)',
      description:
        'Matches by rule id, CVE id, ATLAS technique, fingerprint glob and/or asset type (every criterion given must match), ' +
        "for the org's current and future findings, until expires_at if given. Matching findings leave the effective score.",
      response: { description: 'the rule', schema: ZSuppression },
    },
    handler: ({ deps, auth, body }) => createSuppression(deps, { scope: scopeOf(auth), keyId: auth.key_id, body }),
  }),
  defineRoute({
    method: 'get',
    path: '/suppressions',
    auth: readAssets,
    query: ZSuppressionListQuery,
    doc: {
      examples: { response: EXAMPLE_SUPPRESSION_LIST },
      summary: "The org's suppression rules, newest first (scope assets:read)",
      response: { description: 'a list envelope of suppression rules', schema: ZSuppressionList },
    },
    handler: ({ deps, auth, query }) => listSuppressions(deps, { ...query, scope: scopeOf(auth) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/suppressions/:id',
    auth: triageAssets,
    params: ZSuppressionParams,
    doc: {
      examples: { response: EXAMPLE_DELETED_SUPPRESSION },
      summary: 'Delete a suppression rule (scope assets:triage)',
      response: { description: 'deleted', schema: ZDeletedSuppression },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => deleteSuppression(deps, { scope: scopeOf(auth), id: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/severity-overrides',
    auth: readAssets,
    query: z.strictObject({}),
    doc: {
      examples: { response: EXAMPLE_SEVERITY_OVERRIDE_LIST },
      summary: "The org's severity overrides by rule id (scope assets:read)",
      response: { description: 'a list envelope of severity overrides (one page)', schema: ZSeverityOverrideList },
    },
    handler: ({ deps, auth }) => listSeverityOverrides(deps, { scope: scopeOf(auth) }),
  }),
  defineRoute({
    method: 'put',
    path: '/severity-overrides/:rule_id',
    auth: triageAssets,
    params: ZSeverityOverrideParams,
    body: ZPutSeverityOverrideBody,
    doc: {
      examples: { request: EXAMPLE_PUT_SEVERITY_OVERRIDE, response: EXAMPLE_SEVERITY_OVERRIDE },
      summary: "Set the org's severity for a rule id (scope assets:triage)",
      description:
        "Feeds the org's effective score and findings' effective_severity, never the shared intrinsic score. threat_match cannot be overridden.",
      response: { description: 'the override', schema: ZSeverityOverride },
    },
    handler: ({ deps, auth, params, body }) =>
      putSeverityOverride(deps, {
        scope: scopeOf(auth),
        keyId: auth.key_id,
        ruleId: params.rule_id,
        severity: body.severity,
        ...(body.reason !== undefined ? { reason: body.reason } : {}),
      }),
  }),
  defineRoute({
    method: 'delete',
    path: '/severity-overrides/:rule_id',
    auth: triageAssets,
    params: ZSeverityOverrideParams,
    doc: {
      examples: { response: EXAMPLE_DELETED_SEVERITY_OVERRIDE },
      summary: 'Remove a severity override (scope assets:triage)',
      response: { description: 'deleted', schema: ZDeletedSeverityOverride },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => deleteSeverityOverride(deps, { scope: scopeOf(auth), ruleId: params.rule_id }),
  }),
];
