/**
 * Credentials in the real formats of their issuers (see src/data/secret-formats.json for the sources),
 * built at test time from parts so that the repository holds no literal that looks like a live secret
 * (secret scanners and push protection stay quiet). The bodies are deterministic pseudo-random strings
 * of the issuer's alphabet and length. Shared by the redaction unit tests and the integration tests.
 */

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64URL = ALNUM + '-_';
const BASE64 = ALNUM + '+/';

/** `n` characters of `alphabet`, different for each `seed` (a linear congruential generator). */
export function body(n: number, seed: number, alphabet = ALNUM): string {
  let x = (seed * 2654435761) >>> 0 || 1;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += alphabet[(x >>> 8) % alphabet.length];
  }
  // every body mixes upper case, lower case and digits, like the real ones
  return alphabet === ALNUM || alphabet === BASE64URL || alphabet === BASE64 ? 'Q7' + out.slice(2, -1) + 'k' : out;
}

function b64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}

export interface SampleToken {
  kind: string;
  label: string;
  value: string;
}

/** One token per common kind, realistic length and alphabet. */
export function sampleTokens(seed = 1): SampleToken[] {
  const s = (k: number) => seed * 100 + k;
  const jwt =
    b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })) +
    '.' +
    b64url(JSON.stringify({ sub: `user-${seed}`, iat: 1763900000, scope: 'read write' })) +
    '.' +
    body(43, s(1), BASE64URL);
  const pem = [
    '-----BEGIN ' + 'RSA PRIVATE KEY-----',
    ...Array.from({ length: 6 }, (_, i) => body(64, s(20 + i), BASE64)),
    '-----END ' + 'RSA PRIVATE KEY-----',
  ].join('\n');
  const openssh = [
    '-----BEGIN ' + 'OPENSSH PRIVATE KEY-----',
    ...Array.from({ length: 4 }, (_, i) => body(70, s(30 + i), BASE64)),
    '-----END ' + 'OPENSSH PRIVATE KEY-----',
  ].join('\n');
  return [
    { kind: 'openai_api_key', label: 'OpenAI project key', value: 'sk-' + 'proj-' + body(156, s(2), BASE64URL) },
    { kind: 'openai_api_key', label: 'OpenAI service-account key', value: 'sk-' + 'svcacct-' + body(120, s(3)) },
    {
      kind: 'openai_api_key',
      label: 'OpenAI legacy key',
      value: 'sk-' + body(20, s(4)) + 'T3Blbk' + 'FJ' + body(20, s(5)),
    },
    {
      kind: 'anthropic_api_key',
      label: 'Anthropic key',
      value: 'sk-' + 'ant-' + 'api03-' + body(93, s(6), BASE64URL) + 'AA',
    },
    { kind: 'huggingface_token', label: 'Hugging Face token', value: 'hf' + '_' + body(34, s(7)) },
    { kind: 'github_token', label: 'GitHub classic PAT', value: 'gh' + 'p_' + body(36, s(8)) },
    { kind: 'github_token', label: 'GitHub OAuth token', value: 'gh' + 'o_' + body(36, s(9)) },
    {
      kind: 'github_token',
      label: 'GitHub fine-grained PAT',
      value: 'github' + '_pat_' + body(22, s(10)) + '_' + body(59, s(11)),
    },
    { kind: 'aws_access_key_id', label: 'AWS access key id', value: 'AK' + 'IA' + body(16, s(12), UPPER_DIGITS) },
    {
      kind: 'slack_token',
      label: 'Slack bot token',
      value: 'xo' + 'xb-' + '1234567890' + String(seed) + '-' + '9876543210' + String(seed) + '-' + body(24, s(13)),
    },
    { kind: 'stripe_key', label: 'Stripe live secret key', value: 'sk' + '_live_' + body(99, s(14)) },
    { kind: 'stripe_key', label: 'Stripe test secret key', value: 'sk' + '_test_' + body(24, s(15)) },
    { kind: 'jwt', label: 'JWT', value: jwt },
    { kind: 'private_key', label: 'RSA private key (PEM)', value: pem },
    { kind: 'private_key', label: 'OpenSSH private key', value: openssh },
  ];
}

/** Secrets with no recognisable format: only their context (key name, URL position) says they are secret. */
export function contextualSecrets(seed = 1) {
  return {
    awsSecretAccessKey: body(40, seed * 1000 + 1, BASE64),
    dbPassword: 'pw' + body(14, seed * 1000 + 2),
    urlPassword: 'up' + body(12, seed * 1000 + 3),
    queryApiKey: 'qk' + body(30, seed * 1000 + 4),
    headerValue: 'hv' + body(32, seed * 1000 + 5),
    isSecretEnv: 'se' + body(24, seed * 1000 + 6),
    flagValue: 'fv' + body(20, seed * 1000 + 7),
  };
}
