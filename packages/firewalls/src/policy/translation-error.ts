// A policy a vendor cannot express (docs/firewalls.md "Compiling first-match rules"): the connectors turn it into
// the permanent sync failure `policy_not_translatable`.
export class PolicyTranslationError extends Error {}
