import { rawPathname } from './openapi-responses';

// The response validator matches the path the client sent: the fuzz suites send `.` and `..` as path parameters,
// which `new URL()` would resolve away and so check a `/firewalls/v1/{id}` 404 against the list operation.
describe('rawPathname', () => {
  it.each([
    ['http://127.0.0.1:4000/firewalls/v1/.?limit=2', '/firewalls/v1/.'],
    ['http://127.0.0.1:4000/v1/assets/../x#frag', '/v1/assets/../x'],
    ['https://h/a%2Fb', '/a%2Fb'],
    ['http://h', '/'],
    ['http://h?x=1', '/'],
    ['/v1/threats?x=1', '/v1/threats'],
  ])('%s → %s', (url, path) => {
    expect(rawPathname(url)).toBe(path);
  });
});
