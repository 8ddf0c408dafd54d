// The severity bands are defined once, in @risk/contracts (the pure enrichment engine shares them).
export { RISK_SEVERITIES as SEVERITIES, severityForScore, type RiskSeverity as Severity } from '@risk/contracts';
