// Text checks the rules share, written as loops where a regex would rescan (docs/security.md "Linear-time parsing
// and caps").
import type { ParsedManifest } from '../../types';

const PLACEHOLDER_WORD = /\byour[-_ ]|\bexample\b|\bchangeme\b|\bplaceholder\b|\btodo\b/i;
/** `<…>` or a placeholder word. (`<[^>]*>` as a regex rescanned from every `<` when no `>` followed: quadratic.) */
export function isPlaceholderName(s: string): boolean {
  const lt = s.indexOf('<');
  return (lt >= 0 && s.indexOf('>', lt + 1) >= 0) || PLACEHOLDER_WORD.test(s);
}
/** `<!-- … -->` somewhere: the first `<!--` has a `-->` after it. (`<!--[\s\S]*?-->` was quadratic on repeated `<!--`.) */
export function hasHtmlComment(s: string): boolean {
  const open = s.indexOf('<!--');
  return open >= 0 && s.indexOf('-->', open + 4) >= 0;
}
const GITHUB_HOST = /github\.com[/:]/gi;
/** Owner in `github.com/<owner>/` or `github.com:<owner>/`: the first such occurrence with a non-empty owner. */
export function githubOwner(url: string): string | null {
  GITHUB_HOST.lastIndex = 0;
  for (let m = GITHUB_HOST.exec(url); m; m = GITHUB_HOST.exec(url)) {
    const from = m.index + m[0].length;
    const slash = url.indexOf('/', from);
    if (slash < 0) return null; // no later occurrence can have a closing slash either
    if (slash > from) return url.slice(from, slash);
    GITHUB_HOST.lastIndex = m.index + 1;
  }
  return null;
}

/** The MCP server name a manifest publishes under (registry `name`, or an MCPB/package `mcpName`). */
export function mcpServerName(p: ParsedManifest): string | null {
  return p.mcp_name ?? (p.kind === 'mcp_server_json' ? p.name : null);
}

/**
 * A template: its server name is a placeholder (`io.github.<owner>/<server-name>`), so nothing is published or run
 * from it; what it declares (credentials, arguments) is an example, reported one band lower.
 */
export function isTemplateManifest(p: ParsedManifest): boolean {
  const n = mcpServerName(p);
  return !!n && isPlaceholderName(n);
}
