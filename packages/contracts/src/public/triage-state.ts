// The triage state of a finding (docs/triage.md), apart from triage.ts so the finding contract (assets.ts)
// can carry it without an import cycle.
import { z } from '../zod';

const unix = (description = 'Unix seconds') => z.number().int().openapi({ description });

export const TRIAGE_STATES = [
  'open',
  'acknowledged',
  'false_positive',
  'not_affected',
  'accepted_risk',
  'resolved',
] as const;
export type TriageState = (typeof TRIAGE_STATES)[number];

/** The VEX (OpenVEX 0.2.0 / CISA) status justifications; required with `not_affected`. */
export const VEX_JUSTIFICATIONS = [
  'component_not_present',
  'vulnerable_code_not_present',
  'vulnerable_code_not_in_execute_path',
  'vulnerable_code_cannot_be_controlled_by_adversary',
  'inline_mitigations_already_exist',
] as const;

/** Triage states that take a finding out of the effective score (accepted_risk only while in date). */
export const EXCLUDING_TRIAGE_STATES = ['false_positive', 'not_affected', 'accepted_risk'] as const;

export const ZFindingTriage = z
  .object({
    object: z.literal('finding_triage'),
    finding_key: z.string().openapi({ description: "the finding's identity across enrichments (finding ids change)" }),
    state: z.enum(TRIAGE_STATES),
    justification: z.enum(VEX_JUSTIFICATIONS).nullable(),
    comment: z.string().nullable(),
    expires_at: unix('accepted_risk: when the acceptance ends (the finding returns to open)').nullable(),
    set_by: z.string().openapi({ description: 'the id of the API key that set the state (`system` for expiry)' }),
    created: unix('when the finding was first triaged'),
    updated: unix('when the state last changed'),
  })
  .openapi('FindingTriage');
export type FindingTriage = z.infer<typeof ZFindingTriage>;
