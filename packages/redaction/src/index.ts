/**
 * @risk/redaction: the one redaction module (docs/security.md "Secrets never reach shared data"). It depends
 * on no package of ours, so the logger of every process can use it without loading the enrichment engine
 * (docs/architecture.md "Layering rules"). Everything the engine
 * derives from a signal passes through `redactDeep` before it is stored or served, the leaked-secrets rule
 * (R20) finds tokens with `findSecrets`, and the services' logger runs `redactText` over every line.
 *
 * Linear time by construction: a hand scanner walks the text once, cutting it into runs of token
 * characters; each run is tested against ANCHORED patterns that are a literal prefix plus one bounded
 * character class (src/data/secret-formats.json), so no match can backtrack across runs and each test
 * costs at most its pattern's bound. URL user-info, `name=value` / `name: value` assignments with a
 * secret-looking name, `Bearer <token>` and PEM private-key blocks are found by the same scan or by
 * indexOf — no regular expression runs over the whole input.
 */
export { REDACTED, REDACTED_IN_URL, SECRET_FORMATS, JWT_FORMAT, type SecretFormat } from './catalogue';
export { isSecretKeyName, isPlaceholderValue } from './names';
export { redactText, redactUrl, findSecrets, secretKind, type SecretHit } from './text';
export { redactDeep, collectSecretValues } from './structures';
