import { matchPath } from './match-path';

describe('matchPath', () => {
  it('matches literal and parameter segments and decodes parameters', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/assets', '/assets')).toEqual({});
    expect(matchPath('/assets/:fingerprint', '/assets/hf%3Aacme%2Fmodel')).toEqual({ fingerprint: 'hf:acme/model' });
  });
  it('refuses other shapes and malformed escapes', () => {
    expect(matchPath('/assets/:fingerprint', '/assets')).toBeNull();
    expect(matchPath('/assets/:fingerprint', '/assets/a/b')).toBeNull();
    expect(matchPath('/assets/:fingerprint', '/assets/%E0%A4%A')).toBeNull();
  });
});
