// The console door's header (docs/security.md "The console's public door"): only admin-api, holding SECRETS_KEY, can
// name a session to the public API; anything else reads as no door at all, so the request counts per address.
import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { CONSOLE_DOOR_HEADER, consoleDoorHeader, consoleDoorSession } from './console-door';

const KEY = randomBytes(32).toString('hex');
const OTHER_KEY = randomBytes(32).toString('base64');
const withHeader = (value: string | string[] | undefined) =>
  ({ headers: { [CONSOLE_DOOR_HEADER]: value } }) as unknown as Request;

describe('console door header', () => {
  it('names the session it was made for, under the same key', () => {
    expect(consoleDoorSession(withHeader(consoleDoorHeader('csn_01abc', KEY)), KEY)).toBe('csn_01abc');
  });

  it('reads as no door when forged, altered, made under another key, absent, repeated or without a key', () => {
    const good = consoleDoorHeader('csn_01abc', KEY);
    const [id, mac] = good.split('.') as [string, string];
    for (const value of [
      undefined,
      '',
      id,
      `${id}.`,
      `csn_01abd.${mac}`,
      `${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      consoleDoorHeader('csn_01abc', OTHER_KEY),
      `${id}.${mac}.x`,
      `../x.${mac}`,
      `${'a'.repeat(300)}.${mac}`,
      [good, good],
    ])
      expect(consoleDoorSession(withHeader(value), KEY)).toBeNull();
    expect(consoleDoorSession(withHeader(good), undefined)).toBeNull();
  });

  it('refuses to make a header without a usable key or for an id of another shape', () => {
    expect(() => consoleDoorHeader('csn_01abc', '')).toThrow();
    expect(() => consoleDoorHeader('csn_01abc', 'not-32-bytes')).toThrow();
    expect(() => consoleDoorHeader('csn.01', KEY)).toThrow();
  });
});
