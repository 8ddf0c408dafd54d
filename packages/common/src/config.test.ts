import { configWarnings, ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('works with no variables at all outside production, with documented defaults', () => {
    const cfg = loadConfig({});
    expect(cfg.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/risk');
    expect(cfg.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(cfg.PUBLIC_API_PORT).toBe(8080);
    expect(cfg.ADMIN_API_PORT).toBe(8081);
    expect(cfg.PUBLIC_API_BASE_URL).toBe('http://127.0.0.1:8080');
  });

  it('lists every bad or missing variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', PUBLIC_API_PORT: 'eighty', REDIS_URL: 'http://nope' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/PUBLIC_API_PORT/);
    expect(message).toMatch(/REDIS_URL/);
    expect(message).toMatch(/ADMIN_API_TOKEN: is required when NODE_ENV=production/);
    expect(message).toMatch(/SECRETS_KEY: is required when NODE_ENV=production/);
  });

  it('rejects a SECRETS_KEY that is not 32 bytes', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ SECRETS_KEY: 'a'.repeat(64) }).SECRETS_KEY).toBe('a'.repeat(64));
  });

  it('documents the rate-limit defaults (docs/security.md "Rate limits and caps")', () => {
    const cfg = loadConfig({});
    expect(cfg).toMatchObject({
      RATE_LIMIT_ENABLED: true,
      RATE_LIMIT_LIVE_PER_SECOND: 100,
      RATE_LIMIT_TEST_PER_SECOND: 25,
      RATE_LIMIT_BULK_WEIGHT: 10,
      RATE_LIMIT_ADMIN_PER_SECOND: 25,
      RATE_LIMIT_FAILED_AUTH_PER_IP: 20,
      RATE_LIMIT_FAILED_AUTH_WINDOW_SECONDS: 300,
      WEBHOOK_ENDPOINTS_PER_ORG: 16,
      THREAT_WRITES_PER_ORG_PER_HOUR: 1000,
      EXPAND_AIBOM_MAX_ITEMS: 100,
    });
    expect(loadConfig({ RATE_LIMIT_ENABLED: 'false' }).RATE_LIMIT_ENABLED).toBe(false);
    expect(() => loadConfig({ RATE_LIMIT_LIVE_PER_SECOND: '-1' })).toThrow(/RATE_LIMIT_LIVE_PER_SECOND/);
  });

  it('SHUTDOWN_ACCEPT_MS: 500 by default, 0 to 5000', () => {
    expect(loadConfig({}).SHUTDOWN_ACCEPT_MS).toBe(500);
    expect(loadConfig({ SHUTDOWN_ACCEPT_MS: '0' }).SHUTDOWN_ACCEPT_MS).toBe(0);
    expect(loadConfig({ SHUTDOWN_ACCEPT_MS: '5000' }).SHUTDOWN_ACCEPT_MS).toBe(5000);
    expect(() => loadConfig({ SHUTDOWN_ACCEPT_MS: '5001' })).toThrow(/SHUTDOWN_ACCEPT_MS/);
    expect(() => loadConfig({ SHUTDOWN_ACCEPT_MS: '-1' })).toThrow(/SHUTDOWN_ACCEPT_MS/);
  });

  it('TRUST_PROXY: off by default; a hop count, a list of proxies, or true', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('warns at boot about the deprecated OUTBOUND_ALLOWED_HOSTS and about webhook exemptions in production', () => {
    expect(configWarnings(loadConfig({}))).toEqual([]);
    expect(configWarnings(loadConfig({ OUTBOUND_ALLOWED_HOSTS_FIREWALL: '127.0.0.1' }))).toEqual([]);
    expect(configWarnings(loadConfig({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1,localhost' }))).toEqual([
      expect.stringMatching(
        /OUTBOUND_ALLOWED_HOSTS is deprecated.*firewall hosts only.*OUTBOUND_ALLOWED_HOSTS_FIREWALL/,
      ),
    ]);
    const prod = {
      NODE_ENV: 'production' as const,
      OUTBOUND_ALLOWED_HOSTS: '',
      OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '10.0.0.5',
    };
    expect(configWarnings(prod)).toEqual([expect.stringMatching(/OUTBOUND_ALLOWED_HOSTS_WEBHOOK is set/)]);
  });
});
