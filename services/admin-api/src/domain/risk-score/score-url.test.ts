import { severityForScore } from '@risk/contracts';
import { scoreUrl, UrlParseError } from './score-url';

describe('scoreUrl', () => {
  it('recognises a known AI domain with its category and vendor', () => {
    const r = scoreUrl('https://chatgpt.com/c/1');
    expect(r).toMatchObject({
      registrable_domain: 'chatgpt.com',
      ai_category: 'ai-chat-assistant',
      vendor: 'OpenAI',
      severity: 'informational',
    });
  });
  it('flags a look-alike of an AI brand', () => {
    const r = scoreUrl('chatgpt-login.example');
    expect(r.factors.map((f) => f.code)).toContain('brand_impersonation');
    expect(r.risk_score).toBeGreaterThanOrEqual(40);
    expect(scoreUrl('https://chatgtp.com').factors.map((f) => f.code)).toContain('typosquat');
  });
  it('flags an IP literal host', () => {
    expect(scoreUrl('http://192.168.1.10:8080/').factors.map((f) => f.code)).toEqual(
      expect.arrayContaining(['ip_literal_host', 'nonstandard_port']),
    );
  });
  it('flags a punycode homoglyph of a brand', () => {
    const r = scoreUrl('https://xn--chtgpt-4nf.com/');
    expect(r.factors.map((f) => f.code)).toEqual(expect.arrayContaining(['brand_homoglyph', 'mixed_script']));
  });
  it('uses the severity bands of docs/public-api.md and rejects garbage', () => {
    expect([90, 70, 40, 10, 9].map(severityForScore)).toEqual(['critical', 'high', 'medium', 'low', 'informational']);
    expect(() => scoreUrl('http://')).toThrow(UrlParseError);
  });
});
