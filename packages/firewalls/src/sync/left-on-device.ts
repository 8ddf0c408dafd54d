// What a push left on a device, in words for people: the answer of DELETE ?force=true lists it for each
// assignment whose removal failed (docs/firewalls.md "Assignment sync states"). Vendor-neutral: the
// profile every vendor reports, then each vendor-specific field of its PushedObjects as `field: value`.
import type { PushedObjects } from '../connector/types';

const COMMON_FIELDS = new Set(['vendor', 'profile', 'policy_version', 'warnings']);

export function describePushedObjects(pushed: PushedObjects | null): string[] {
  if (!pushed) return [];
  const lines = [`profile ${pushed.profile} (policy version ${pushed.policy_version})`];
  for (const [field, value] of Object.entries(pushed)) {
    if (COMMON_FIELDS.has(field) || value === null || value === undefined) continue;
    lines.push(`${field}: ${Array.isArray(value) ? value.map(String).join(', ') : String(value)}`);
  }
  return lines;
}
