import {
  collectSecretValues,
  findSecrets,
  isSecretKeyName,
  JWT_FORMAT,
  redactDeep,
  redactText,
  redactUrl,
  SECRET_FORMATS,
  secretKind,
} from '../src/index';
import { randomBytes } from 'node:crypto';
import { body, contextualSecrets, sampleTokens } from './secret-tokens';
import { expectWithinBudget } from '@risk/time-budget';

const tokens = sampleTokens();

describe('redactText: the token catalogue', () => {
  it.each(tokens.map((t) => [t.label, t] as const))('redacts a %s wherever it stands', (_label, t) => {
    const contexts = [
      t.value,
      `use ${t.value} please`,
      `"${t.value}"`,
      `KEY_FOR_THING=${t.value}\nNEXT=1`,
      `{"text": "see\\n${t.value.replace(/\n/g, '\\n')}\\n"}`,
      `(${t.value}).`,
    ];
    for (const text of contexts) {
      const out = redactText(text);
      // no line of a multi-line secret survives, nor the secret itself
      for (const part of t.value.split('\n').filter((p) => p.length >= 16)) expect(out).not.toContain(part);
    }
    expect(redactText(`x ${t.value} y`)).toContain(`[REDACTED:${t.kind}]`);
  });

  it.each(tokens.map((t) => [t.label, t] as const))('findSecrets names a %s by kind and offset only', (_label, t) => {
    const text = `line one\nthe key: ${t.value} end`;
    const hits = findSecrets(text);
    expect(hits).toEqual([{ kind: t.kind, start: text.indexOf(t.value), end: text.indexOf(t.value) + t.value.length }]);
    if (t.kind !== 'private_key') expect(secretKind(t.value)).toBe(t.kind);
  });

  it("redacts this platform's own credentials (API keys, webhook secrets, deployment and admin tokens)", () => {
    const own = [
      'rk_' + 'live_' + body(43, 1),
      'rk_' + 'test_' + body(43, 2),
      'whsec_' + body(32, 3) + '+/' + body(8, 4) + '==',
      'whsec_' + 'Ab+/' + body(36, 7) + '=',
      'dpl_' + body(32, 5),
      'adm_' + body(32, 6),
    ];
    for (const v of own) {
      const out = redactText(`secret is ${v} ok`);
      expect(out).not.toContain(v.slice(0, 14));
      expect(out).toMatch(/^secret is \[REDACTED:[a-z_]+\] ok$/);
    }
  });

  it('redacts feed secrets (rkf_) and console session secrets (cs_) in the shape the platform mints them', () => {
    // both are minted as prefix + randomToken(32) (packages/common crypto.ts): 32 random bytes in unpadded
    // base64url, 43 characters; this package cannot import @risk/common (common's logger imports it)
    const minted = (prefix: string) => prefix + randomBytes(32).toString('base64url');
    for (let i = 0; i < 50; i++) {
      for (const [prefix, kind] of [
        ['rkf_', 'platform_feed_secret'],
        ['cs_', 'platform_console_session'],
      ] as const) {
        const v = minted(prefix);
        expect(redactText(`feed token ${v} pasted`)).toBe(`feed token [REDACTED:${kind}] pasted`);
        expect(redactText(`FEED_SECRET=${v}`)).not.toContain(v.slice(prefix.length, prefix.length + 12));
        expect(findSecrets(`x: ${v}`)).toEqual([{ kind, start: 3, end: 3 + v.length }]);
        expect(secretKind(v)).toBe(kind);
      }
    }
    // glued to a word, and cut off by truncate()
    const cs = 'cs_' + body(43, 9);
    expect(redactText(`SESSION_${cs} end`)).toBe('SESSION_[REDACTED:platform_console_session] end');
    expect(redactText(`match: ${'rkf_' + body(43, 10).slice(0, 12)}…`)).toBe('match: [REDACTED:platform_feed_secret]…');
    // the short prefix alone is no secret: identifiers and lengths other than 43 stay
    for (const benign of [
      'cs_helper_function_name',
      'import cs_utils; cs_config.load()',
      'cs_' + body(42, 11),
      'cs_' + body(44, 12),
      'rkf_' + body(20, 13),
    ])
      expect(redactText(benign)).toBe(benign);
  });

  it('redacts a token glued to a word by a dash or an underscore, not a dashed name', () => {
    const gh = tokens.find((t) => t.label === 'GitHub classic PAT')!.value;
    const openai = tokens[0]!.value;
    expect(redactText(`deploy-${openai} ok`)).toBe('deploy-[REDACTED:openai_api_key] ok');
    expect(redactText(`GH_${gh}`)).toBe('GH_[REDACTED:github_token]');
    expect(findSecrets(`x GH_${gh}`)).toEqual([{ kind: 'github_token', start: 5, end: 5 + gh.length }]);
    expect(redactText('pip install my-sk-learn-compatible-estimators')).toBe(
      'pip install my-sk-learn-compatible-estimators',
    );
  });

  it('redacts the start of a token cut off by truncate() (an ellipsis right after it)', () => {
    const t = tokens[0]!.value;
    expect(redactText(`match: ${t.slice(0, 30)}…`)).toBe('match: [REDACTED:openai_api_key]…');
  });

  it('leaves look-alikes and ordinary text alone', () => {
    const benign = [
      'from huggingface_hub import hf_hub_download',
      'pip install scikit-learn sk-video',
      'SPDXRef-Package-hf-acme-model-2, pkg:huggingface/acme/model@abc123',
      'https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json?download=true',
      'author: Jane Doe; pad_token: <pad>; max_tokens: 4096; eos_token_id: 2',
      'Server gh receives credentials: GITHUB_TOKEN, API_KEY.',
      'This model uses a Bearer token for authentication.',
      '{"key": "wer@common_voice", "value": "19.1"}',
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'git+https://github.com/acme/repo.git#egg=acme',
      'API_KEY=${OPENAI_API_KEY} TOKEN=<your-token> PASSWORD= secret: {{ secrets.HF_TOKEN }}',
    ];
    for (const text of benign) expect(redactText(text)).toBe(text);
  });
});

describe('redactText: credentials known by their context', () => {
  const c = contextualSecrets();
  it('URL user-info: the password, or a token standing alone as user-info', () => {
    expect(redactUrl(`https://deploy:${c.urlPassword}@pypi.acme.internal/simple`)).toBe(
      'https://deploy:REDACTED@pypi.acme.internal/simple',
    );
    const gh = tokens.find((t) => t.label === 'GitHub classic PAT')!.value;
    expect(redactUrl(`git+https://${gh}@github.com/acme/private.git`)).toBe(
      'git+https://REDACTED@github.com/acme/private.git',
    );
    expect(redactText(`--extra-index-url https://user:${c.urlPassword}@host/simple\ntorch==2.1`)).not.toContain(
      c.urlPassword,
    );
  });

  it('query parameters whose name or value looks secret (the URL stays valid)', () => {
    const url = `https://api.acme.dev/mcp?api_key=${c.queryApiKey}&region=eu&sig=${c.dbPassword}&code=${c.headerValue}&page=2`;
    const out = redactUrl(url);
    expect(out).toBe('https://api.acme.dev/mcp?api_key=REDACTED&region=eu&sig=REDACTED&code=REDACTED&page=2');
    expect(() => new URL(out)).not.toThrow();
  });

  it('bearer and authorization values, keeping the scheme', () => {
    expect(redactText(`Authorization: Bearer ${c.headerValue}`)).toBe('Authorization: Bearer [REDACTED]');
    expect(redactText(`curl -H "Authorization: Basic ${c.dbPassword}" https://x`)).toBe(
      'curl -H "Authorization: Basic [REDACTED]" https://x',
    );
    expect(redactText(`sent with bearer ${c.headerValue}`)).toBe('sent with bearer [REDACTED]');
    expect(redactText(`X-Api-Key: ${c.headerValue}`)).toBe('X-Api-Key: [REDACTED]');
  });

  it('assignments under secret-looking names in env files, YAML, JSON, TOML, Python and CLI flags', () => {
    const cases: Array<[string, string]> = [
      [`AWS_SECRET_ACCESS_KEY=${c.awsSecretAccessKey}`, 'AWS_SECRET_ACCESS_KEY=[REDACTED]'],
      [`  DB_PASSWORD: "${c.dbPassword}"`, '  DB_PASSWORD: "[REDACTED]"'],
      [`{"client_secret": "${c.dbPassword}", "n": 1}`, '{"client_secret": "[REDACTED]", "n": 1}'],
      [`api_key = '${c.queryApiKey}'`, "api_key = '[REDACTED]'"],
      [`ENV DB_PASSWORD=${c.dbPassword} PORT=80`, 'ENV DB_PASSWORD=[REDACTED] PORT=80'],
      [`ENV AWS_SECRET_ACCESS_KEY ${c.awsSecretAccessKey}\nRUN x`, 'ENV AWS_SECRET_ACCESS_KEY [REDACTED]\nRUN x'],
      [`- STRIPE_KEY=${c.headerValue}`, '- STRIPE_KEY=[REDACTED]'],
      [`run --api-key ${c.flagValue} --verbose`, 'run --api-key [REDACTED] --verbose'],
      [`run --token=${c.flagValue}`, 'run --token=[REDACTED]'],
    ];
    for (const [text, expected] of cases) expect(redactText(text)).toBe(expected);
  });

  it('exact values known from their key are scrubbed wherever they reappear', () => {
    expect(redactText(`the password ${c.dbPassword} again`, [c.dbPassword])).toBe('the password [REDACTED] again');
  });
});

describe('isSecretKeyName', () => {
  it.each([
    'OPENAI_API_KEY',
    'GITHUB_PERSONAL_ACCESS_TOKEN',
    'HF_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'Authorization',
    'Proxy-Authorization',
    'x-api-key',
    'apiKey',
    'clientSecret',
    'db_password',
    'PGPASSWORD',
    'X-Amz-Signature',
    'sig',
    'set-cookie',
    'basic_auth',
    'webhook_secret',
    'secret_ciphertext',
    'private_key',
    'SLACK_BOT_TOKEN',
    '--api-key',
  ])('%s is secret', (name) => expect(isSecretKeyName(name)).toBe(true));
  it.each([
    'author',
    'token_id',
    'tokenizer_class',
    'pad_token',
    'max_tokens',
    'idempotency_key',
    'public_key',
    'key',
    'keys',
    'secrets',
    'path',
    'license',
    'name',
    'tokenUrl',
  ])('%s is not', (name) => expect(isSecretKeyName(name)).toBe(false));
});

describe('redactDeep', () => {
  const c = contextualSecrets(2);
  it('redacts values under secret keys, {name, value} pairs, --flag arguments and every string', () => {
    const gh = tokens.find((t) => t.kind === 'github_token')!.value;
    const out = redactDeep({
      mcpServers: {
        gh: {
          command: 'npx',
          args: ['-y', '@acme/mcp@1.0.0', '--api-key', c.flagValue, '--port', '8080'],
          env: { GITHUB_TOKEN: gh, LOG_LEVEL: 'debug', DB_PASSWORD: c.dbPassword },
          headers: { Authorization: `Bearer ${c.headerValue}` },
          url: `https://u:${c.urlPassword}@mcp.acme.dev/sse?token=${c.queryApiKey}`,
        },
      },
      environmentVariables: [{ name: 'WEATHER_REGION', value: c.isSecretEnv, isSecret: true }],
      headers: [{ name: 'X-Api-Key', value: c.headerValue }],
      nested: [[[`see ${gh}`]]],
      count: 3,
      ok: true,
    });
    const text = JSON.stringify(out);
    for (const v of [gh, ...Object.values(c)]) expect(text).not.toContain(v);
    expect(out.mcpServers.gh.args).toEqual(['-y', '@acme/mcp@1.0.0', '--api-key', '[REDACTED]', '--port', '8080']);
    expect(out.mcpServers.gh.env.LOG_LEVEL).toBe('debug');
    expect(out.mcpServers.gh.url).toBe('https://u:REDACTED@mcp.acme.dev/sse?token=REDACTED');
    expect(out.count).toBe(3);
    expect(out.ok).toBe(true);
  });

  it("keeps a __proto__ key as a key (redacted like any other), not as the copy's prototype", () => {
    const gh = tokens.find((t) => t.kind === 'github_token')!.value;
    const out = redactDeep(JSON.parse(`{"schema":{"__proto__":{"GITHUB_TOKEN":"${gh}","type":"string"}}}`) as object);
    expect(JSON.stringify(out)).toBe('{"schema":{"__proto__":{"GITHUB_TOKEN":"[REDACTED]","type":"string"}}}');
    expect(Object.getPrototypeOf((out as { schema: object }).schema)).toBe(Object.prototype);
  });

  it('collectSecretValues finds the values that only their key marks as secret', () => {
    const values = collectSecretValues([
      {
        env: { DB_PASSWORD: c.dbPassword, REGION: 'eu-west-1', TOKEN: '${TOKEN}' },
        headers: { Authorization: `Bearer ${c.headerValue}` },
        args: ['--token', c.flagValue],
      },
    ]);
    expect(values.sort()).toEqual([c.dbPassword, c.headerValue, c.flagValue].sort());
  });
});

describe('linear time', () => {
  // the worst cases of the scanner: many prefixes, unterminated assignments and PEM headers, long runs
  const MiB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
  const worst = [
    fill('sk-'),
    fill('eyJ.'),
    fill('eyJa'),
    fill('://@'),
    fill('a://'),
    fill('-----BEGIN '),
    fill('-----BEGIN PRIVATE KEY-----'),
    fill('api_key='),
    fill('token: "'),
    fill('Bearer '),
    fill('--token '),
    fill('?sig=a&'),
    fill('a'),
    fill('hf_a'),
    fill('x\\'),
    fill('eyJ '),
    fill('token=$token='),
    fill('"token": "${'),
    fill('a-sk-'),
    fill('a_hf_a-sk-proj-'),
    'sk-proj-' + fill('A'),
    'https://' + fill('a:') + '@',
  ];
  it.each(worst.map((w, i) => [i, w.slice(0, 16), w] as const))(
    'pattern %i (%s…) at 1 MiB in well under a second',
    (_i, _h, text) => {
      expectWithinBudget(1500, () => {
        redactText(text);
        findSecrets(text);
      });
    },
  );

  it('every catalogue pattern is anchored and runs in bounded time on a 1 MiB worst case', () => {
    for (const f of [...SECRET_FORMATS, JWT_FORMAT]) {
      expect(f.pattern.source.startsWith('^')).toBe(true);
      expect(f.pattern.source.endsWith('$')).toBe(true);
      for (const prefix of f.prefixes) {
        const long = prefix + 'a'.repeat(MiB) + '!';
        const dots = prefix + '.'.repeat(MiB);
        expectWithinBudget(500, () => [f.pattern.test(long), f.pattern.test(dots)]);
      }
    }
  });
});
