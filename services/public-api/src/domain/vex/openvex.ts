import { randomUUID } from 'node:crypto';
import { uniqueBy, type VexEntry } from './statements';

/** OpenVEX 0.2.0 (https://openvex.dev/ns/v0.2.0), validated against its published schema in the tests. */
export const OPENVEX_CONTEXT = 'https://openvex.dev/ns/v0.2.0';

const iso = (d: Date) => d.toISOString();

type Statement = Record<string, unknown>;

/** The org's state → an OpenVEX status with the fields that status requires (docs/triage.md table). */
function statusOf(e: VexEntry): Statement {
  const note = e.comment ?? undefined;
  switch (e.state) {
    case 'not_affected':
      return { status: 'not_affected', justification: e.justification, ...(note ? { impact_statement: note } : {}) };
    case 'false_positive':
      return { status: 'not_affected', impact_statement: `False positive${note ? `: ${note}` : '.'}` };
    case 'resolved':
      return { status: 'fixed', ...(note ? { status_notes: note } : {}) };
    case 'acknowledged':
      return {
        status: 'affected',
        action_statement: note ?? e.finding.remediation ?? 'Acknowledged; remediation is being planned.',
      };
    case 'accepted_risk':
      return {
        status: 'affected',
        action_statement: `Risk accepted until ${e.expires_at ? iso(e.expires_at) : 'further notice'}${note ? `: ${note}` : '.'}`,
      };
    default:
      return {
        status: 'under_investigation',
        ...(e.suppressed_by.length ? { status_notes: `Suppressed by rule(s) ${e.suppressed_by.join(', ')}.` } : {}),
      };
  }
}

export function renderOpenVex(input: {
  author: string;
  product: { id: string; purl: string | null };
  entries: VexEntry[];
  now: Date;
}): Record<string, unknown> {
  const product = {
    '@id': input.product.id,
    ...(input.product.purl ? { identifiers: { purl: input.product.purl } } : {}),
  };
  const statements = input.entries.map((e) => ({
    vulnerability: { name: e.vulnerability, description: e.finding.title },
    ...(e.updated ? { timestamp: iso(e.updated) } : {}),
    products: [product],
    ...statusOf(e),
  }));
  return {
    '@context': OPENVEX_CONTEXT,
    '@id': `urn:uuid:${randomUUID()}`,
    author: input.author,
    role: 'Document Creator',
    timestamp: iso(input.now),
    version: 1,
    tooling: 'risk-intelligence-platform',
    statements: uniqueBy(statements, (s) => JSON.stringify(s)),
  };
}
