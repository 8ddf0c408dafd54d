// Text no manifest format claimed: its body, a licence the prose names, and a licence file identified by its wording.
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import { identifyLicenceText } from '../license';
import type { ParsedManifest } from '../types';
import { proseLicense } from './card';

/** A licence file: "licence" near the top and the wording of a grant. */
export function isLicenceText(text: string): boolean {
  return /\blicen[sc]e\b/i.test(text.slice(0, 400)) && /\b(grant|licensor|permission|redistribut)/i.test(text);
}

/** The body and what it says about its licence. */
export function parseText(p: ParsedManifest, text: string): void {
  p.body = text;
  const pl = proseLicense(text);
  if (pl) {
    p.licenses = [pl];
    p.license_text = 'prose';
  }
  if (isLicenceText(text)) {
    p.license_text = text.length > 4000 ? text.slice(0, 4000) : text;
    // a licence file: which licence it is, when its wording says so (MIT, Apache-2.0, Llama 2 …)
    const id = p.licenses.length === 0 ? identifyLicenceText(text) : null;
    if (id) p.licenses = [id];
  }
}
