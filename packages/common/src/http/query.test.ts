import { parseQueryString } from './query';

describe('parseQueryString', () => {
  it('turns key[] into arrays and repeated keys into arrays, single keys into strings', () => {
    expect(parseQueryString('expand[]=findings&expand[]=aibom&limit=5&x=1&x=2')).toEqual({
      expand: ['findings', 'aibom'],
      limit: '5',
      x: ['1', '2'],
    });
    expect(parseQueryString('expand[]=findings')).toEqual({ expand: ['findings'] });
  });

  it('keeps all 500 repeated values (node:querystring stops at 1000 pairs, qs reshapes >20)', () => {
    const qs = Array.from({ length: 500 }, (_, i) => `lookup_name=n${i}&lookup_version=v${i}&fingerprints=f${i}`).join(
      '&',
    );
    const parsed = parseQueryString(qs);
    expect(parsed.lookup_name).toHaveLength(500);
    expect(parsed.lookup_version).toHaveLength(500);
    expect(parsed.fingerprints).toHaveLength(500);
    expect((parsed.lookup_name as string[])[499]).toBe('n499');
  });

  it('decodes percent-encoding and +', () => {
    expect(parseQueryString('url=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&q=a+b')).toEqual({
      url: 'https://a.example/x?y=1',
      q: 'a b',
    });
  });

  it('has no prototype to pollute', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toBe('x');
  });
});
