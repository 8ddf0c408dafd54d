import { ConfigError, loadConfig } from './config';

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
});
