// The firewall types the admin API accepts: the one list of vendor ids (docs/firewalls.md "The vendor registry").
// It lives here, dependency-free, because @risk/contracts sits below @risk/firewalls (contracts ← common ←
// firewalls): the registry there is keyed by exactly these ids, so a vendor added on one side only fails typecheck.
export const FIREWALL_TYPE_VALUES = ['palo_alto', 'fortinet'] as const;

/** A vendor id: `firewalls.type`, the key of @risk/firewalls' FIREWALL_VENDORS. */
export type FirewallTypeId = (typeof FIREWALL_TYPE_VALUES)[number];
