import { defaultOperationId, openApiPath } from './route-openapi';

describe('defaultOperationId', () => {
  it('joins the method and the path words, leaving out the version and naming parameters By<Name>', () => {
    expect(defaultOperationId('get', '/v1/assets/:fingerprint/findings')).toBe('getAssetsByFingerprintFindings');
    expect(defaultOperationId('delete', '/tenants/v1/:id/tokens/:token_id')).toBe('deleteTenantsByIdTokensByTokenId');
    expect(defaultOperationId('post', '/firewalls/v1/:id/configure-vendor-logging')).toBe(
      'postFirewallsByIdConfigureVendorLogging',
    );
  });

  it('names the root path Index and reads the document form of a path the same as the express form', () => {
    expect(defaultOperationId('get', '/')).toBe('getIndex');
    expect(defaultOperationId('get', openApiPath('/v1/signals/:signal_id'))).toBe(
      defaultOperationId('get', '/v1/signals/:signal_id'),
    );
  });
});
