// Character classes of the redaction scanner, on UTF-16 code units (no regular expression runs over a text).

export function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
export function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
export function isAlnum(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c);
}
// token characters: [A-Za-z0-9_-]; runs also take '.', so a JWT stays one run
export function isTokenChar(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 45;
}
export function isRunChar(c: number): boolean {
  return isTokenChar(c) || c === 46;
}
export function isBase64Char(c: number): boolean {
  return isTokenChar(c) || c === 43 || c === 47 || c === 61;
}
export function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}
export function isQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 96;
}
export function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}
// where an unquoted value ends: whitespace, quotes, separators of lists, queries and markup
export function endsBareValue(c: number): boolean {
  return (
    isWhitespace(c) ||
    isQuote(c) ||
    c === 38 /* & */ ||
    c === 44 /* , */ ||
    c === 59 /* ; */ ||
    c === 60 /* < */ ||
    c === 62 /* > */ ||
    c === 40 /* ( */ ||
    c === 41 /* ) */ ||
    c === 123 /* { */ ||
    c === 125 /* } */ ||
    c === 91 /* [ */ ||
    c === 93 /* ] */ ||
    c === 124 /* | */ ||
    c === 92 /* \ */
  );
}
// where a URL's authority ends
export function endsAuthority(c: number): boolean {
  return (
    isWhitespace(c) ||
    isQuote(c) ||
    c === 47 /* / */ ||
    c === 63 /* ? */ ||
    c === 35 /* # */ ||
    c === 60 ||
    c === 62 ||
    c === 92 ||
    c === 41 ||
    c === 93 ||
    c === 125
  );
}
