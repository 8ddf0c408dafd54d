// Shell text in Dockerfiles, compose commands and notebooks, and container image references (docs/enrichment.md
// R17, R21, R22).

/** Offensive-security tooling (penetration-testing distributions, scanners, exploitation frameworks); `_` counts as a
 * separator (`kali_mcp`), unlike `\b`. */
export const OFFENSIVE_TOOLS =
  /(?<![a-z0-9])(?:kali(?:linux)?|parrotsec|metasploit|msfconsole|msfvenom|nmap|nikto|sqlmap|thc-hydra|gobuster|ffuf|nuclei|hashcat|aircrack-ng|impacket|burpsuite|wpscan|masscan|dirb|feroxbuster|crackmapexec|netexec|bloodhound|mimikatz|dvwa|pentest(?:ing)?|red[-_ ]?team(?:ing)?)(?![a-z0-9])/i;
/** Reconnaissance for attacks: bug-bounty recon, attack-surface mapping, subdomain and endpoint enumeration of
 * targets (short of exploitation, so counted one band below offensive tooling). */
export const RECON_TOOLS =
  /(?<![a-z0-9])(?:bug[-_ ]?bounty|attack[-_ ]surface|reconnaissance|recon|subdomain enumeration|endpoint discovery)(?![a-z0-9])/i;
// Command checks work on segments split at `;`, `&` and `|` (no unbounded class before a literal: linear by construction).
const FETCHER = /\b(?:curl|wget)\s/;
const SHELL_SINK = /^\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/;
const GIT_CLONE = /\bgit\s+clone\s/;
const PIP_INSTALL = /\bpip3?\s+install\s/;
const VCS_URL = /\b(?:git|hg)\+[a-z]/;
/** pip install options followed by a value (a file, a URL, a directory), not a package (pip "install" options). */
const PIP_VALUE_OPTION =
  /^(?:-[rcefit]|--(?:requirement|constraint|editable|find-links|index-url|extra-index-url|target|prefix|root|src|platform|python-version|implementation|abi|cache-dir|log|proxy|cert|client-cert|trusted-host|upgrade-strategy|config-settings|global-option|progress-bar|report|retries|timeout|exists-action|no-binary|only-binary))$/;
/** A requirements or constraints file named as if it were a package. */
const REQUIREMENTS_FILE = /\.(?:txt|in|cfg|toml|py)$/i;
const COMMIT_SHA = /@[0-9a-f]{40}\b|\bcheckout\s+[0-9a-f]{7,40}\b/;
/** Tags that move: latest, branch names, nightlies, and a variant of latest (`latest-amd`, `cuda-latest`);
 * `${VAR:-main}` defaults count as their default. */
const MUTABLE_TAG = /^(?:latest|main|master|dev|develop|nightly|edge|rolling|stable|head)$|^latest[-_]|[-_]latest$/i;

/** The tag of an image reference, its `${VAR:-default}` default resolved; null when untagged. */
export function imageTag(image: string): string | null {
  if (image.includes('@sha256:')) return 'digest';
  // the tag follows the first `:` after the last `/` (a registry port sits before it)
  const last = image.slice(image.lastIndexOf('/') + 1);
  const i = last.indexOf(':');
  if (i < 0) return null;
  const tag = last.slice(i + 1);
  const dflt = /^\$\{\w+:?-([\w.-]*)\}$/.exec(tag);
  return dflt ? (dflt[1] ?? '') : tag;
}

export function unpinnedImage(image: string): boolean {
  if (/^scratch$/i.test(image) || /^\$\{?[\w]+\}?$/.test(image)) return false;
  const tag = imageTag(image);
  return tag === null || tag === '' || MUTABLE_TAG.test(tag);
}

/** Build/start commands read once: code fetched from a URL or VCS at a moving ref, and pip installs of bare names. */
export function scanCommands(commands: readonly string[]): { fetched: string[]; unpinned: string[] } {
  const fetched: string[] = [];
  const unpinned: string[] = [];
  for (const c of commands) {
    // a pipe splits segments too: `curl … | sh` is a fetcher segment followed by a shell segment
    const pipes = c.split('|');
    pipes.forEach((seg, i) => {
      const next = pipes[i + 1];
      if (next !== undefined && FETCHER.test(seg) && SHELL_SINK.test(next))
        fetched.push('remote script piped to a shell');
    });
    const pinned = COMMIT_SHA.test(c);
    // a line ends a command too (a notebook cell or a RUN heredoc goes on with other commands; `\` continues a line)
    for (const seg of c
      .replace(/\\\r?\n/g, ' ')
      .split(/[;&|\n]/)
      .slice(0, 2000)) {
      if (GIT_CLONE.test(seg) && !pinned) fetched.push('VCS source at a moving ref');
      const pip = PIP_INSTALL.exec(seg);
      if (!pip) continue;
      if (VCS_URL.test(seg) && !pinned) fetched.push('VCS source at a moving ref');
      // an option's value (`-r requirements.txt`, `-c constraints.txt`, `--index-url …`) is not a package: what a
      // requirements file holds is not visible here
      const args = seg
        .slice(pip.index + pip[0].length)
        .split(/\s+/)
        .slice(0, 200);
      args.forEach((tok, i) => {
        const prev = args[i - 1] ?? '';
        if (PIP_VALUE_OPTION.test(prev)) return;
        if (/^[A-Za-z][\w.-]*(?:\[[\w,.-]*\])?$/.test(tok) && !REQUIREMENTS_FILE.test(tok)) unpinned.push(tok);
      });
    }
  }
  return { fetched, unpinned };
}
