// Parsing of the free-text list fields (domains, categories, scopes): split on commas and white space, trimmed,
// empties and repeats dropped, order kept. Linear, no regular expression over the whole input.
export function splitList(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,]/)) {
    const v = part.trim();
    if (v) seen.add(v);
  }
  return [...seen];
}
