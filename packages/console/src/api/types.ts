// The API objects the pages render, named once from the SDK's generated OpenAPI types (packages/sdk/src/generated).
import type { components as Admin } from '@risk/sdk/src/generated/admin-api';
import {
  assetEnrichment_statusValues,
  triageBodyJustificationValues,
  triageBodyStateValues,
  type components,
} from '@risk/sdk/src/generated/public-api';

type Schemas = components['schemas'];
export type Asset = Schemas['Asset'];
export type Finding = Schemas['Finding'];
export type Threat = Schemas['Threat'];
export type AssetList = Schemas['AssetList'];
export type Overview = Schemas['Overview'];

export type Policy = Admin['schemas']['UrlFilterPolicy'];
export type Rule = Policy['rules'][number];
export type Firewall = Admin['schemas']['Firewall'];
export type FirewallTest = Admin['schemas']['FirewallTestResult'];
export type FirewallLogging = Admin['schemas']['FirewallLoggingResult'];
export type RiskScore = Admin['schemas']['UrlRiskScore'];
export type Tenant = Admin['schemas']['Tenant'];
export type DeploymentToken = Admin['schemas']['DeploymentToken'];
export type ThreatImport = Schemas['ThreatImport'];
export type Webhook = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

export const FILTER_ACTIONS = ['allow', 'block', 'alert'] as const satisfies ReadonlyArray<Rule['action']>;
export type FilterAction = (typeof FILTER_ACTIONS)[number];
// The values of the public API's enums, from the SDK's generated lists (no hand-written copy to drift).
export const TRIAGE_STATES = triageBodyStateValues;
/** The VEX status justifications a `not_affected` triage takes. */
export const VEX_JUSTIFICATIONS = triageBodyJustificationValues;
export const ENRICHMENT_STATUSES = assetEnrichment_statusValues;
export type UpdateFirewallBody = Admin['schemas']['UpdateFirewallBody'];
export type ConfigureLoggingBody = Admin['schemas']['ConfigureLoggingBody'];
export type CreateThreatBody = Schemas['CreateThreatBody'];
export type UpdateThreatBody = Schemas['UpdateThreatBody'];
export type CreateWebhookBody = Schemas['CreateWebhookBody'];
export type TenantToken = Admin['schemas']['TenantToken'];
export type ApiKey = Admin['schemas']['ApiKey'];
export type CreateApiKeyBody = Admin['schemas']['CreateApiKeyBody'];
export type CreateRuleBody = Admin['schemas']['CreateUrlFilterRuleBody'];
export type UpdateRuleBody = Admin['schemas']['UpdateUrlFilterRuleBody'];
export type UpdatePolicyBody = Admin['schemas']['UpdateUrlFilterPolicyBody'];
export const ASSET_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AssetSeverity = (typeof ASSET_SEVERITIES)[number];
