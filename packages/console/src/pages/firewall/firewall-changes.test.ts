import type { Firewall } from '../../api/types';
import { firewallChanges, type Draft } from './firewall-changes';

const fw = { name: 'pa', type: 'palo_alto', host: '10.0.0.1', port: 443, verify_ssl: true } as Firewall;
const draft = (over: Partial<Draft> = {}): Draft => ({
  name: 'pa',
  type: 'palo_alto',
  host: '10.0.0.1',
  port: '443',
  verify_ssl: true,
  api_token: '',
  ...over,
});

describe('firewallChanges', () => {
  it('sends nothing when nothing changed', () => {
    expect(firewallChanges(fw, draft())).toEqual({ body: {}, needsToken: false });
  });
  it('a rename needs no token; a new token alone is sent', () => {
    expect(firewallChanges(fw, draft({ name: ' pa-2 ' }))).toEqual({ body: { name: 'pa-2' }, needsToken: false });
    expect(firewallChanges(fw, draft({ api_token: 'x' }))).toEqual({ body: { api_token: 'x' }, needsToken: false });
  });
  it.each([
    [{ host: '10.0.0.2' }, { host: '10.0.0.2' }],
    [{ port: '8443' }, { port: 8443 }],
    [{ verify_ssl: false }, { verify_ssl: false }],
    [{ type: 'fortinet' as const }, { type: 'fortinet' }],
  ])('a connection change %p needs the token', (over, body) => {
    expect(firewallChanges(fw, draft(over))).toEqual({ body, needsToken: true });
    expect(firewallChanges(fw, draft({ ...over, api_token: 't' })).body).toEqual({ ...body, api_token: 't' });
  });
});
