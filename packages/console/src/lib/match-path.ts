// Route patterns of the app shell (app/router.tsx): `/assets/:fingerprint` style, parameters decoded.
/** Matches `/assets/:fingerprint` style patterns; returns the decoded parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.split('/');
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(s[i]!);
      } catch {
        return null;
      }
    } else if (part !== s[i]) return null;
  }
  return params;
}
