// Renders docs/enrichment.md (rule catalogue, scoring, trust, AI-BOM) from the rule registry and the shipped data:
// `pnpm --filter @risk/enrichment rules-doc` writes it; test/api.test.ts fails when the file is out of date.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import advisories from '../src/data/advisories.osv.json';
import publishers from '../src/data/publishers.json';
import { ATLAS_TACTICS, ATLAS_TECHNIQUES, ATLAS_VERSION } from '../src/atlas';
import { SCORE_FORMULA } from '../src/index';
import { DEPENDENCY_ADVISORY_CONFIDENCE, RULES, SECONDARY_ADVISORY_CONFIDENCE } from '../src/rules';
import { KNOWN_SERVERS } from '../src/rules/signals/servers';
import { CONFIDENT } from '../src/score';
import { FORMATS } from '../src/formats';
import { FORMATS_DOC_PATH, renderFormatsDoc, renderManifestsRecognised } from './formats-doc';

export const DOC_PATH = join(__dirname, '..', '..', '..', 'docs', 'enrichment.md');

export function renderEnrichmentDoc(): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = RULES.map(
    (r) =>
      `| ${r.id} | ${esc(r.title)} | ${r.severity} | ${r.weight} | ${esc(r.rationale)} | ${r.attack_techniques.map((t) => `${t} (${ATLAS_TECHNIQUES.get(t)?.name ?? '?'})`).join(', ') || '—'} | ${esc(r.remediation)} | ${esc(r.references.join('; ') || '—')} |`,
  );
  const verification = advisories.records.reduce<Record<string, number>>(
    (acc, a) => ({ ...acc, [a.database_specific.verification]: (acc[a.database_specific.verification] ?? 0) + 1 }),
    {},
  );
  return `# Enrichment: rules, scoring, publisher trust, AI-BOM

Generated from the rule registry (\`packages/enrichment/src/rules/registry.ts\`: one \`defineRule\` per rule in
\`src/rules/<family>.ts\`), the format registry (\`src/formats/registry.ts\`: one \`defineFormat\` per manifest format) and
the shipped data by
\`packages/enrichment/scripts/gen-rules-doc.ts\` (\`pnpm --filter @risk/enrichment rules-doc\`; a test fails when this
file is out of date — do not edit by hand).

The engine (\`packages/enrichment\`) is pure: no I/O, no clock (the caller passes \`now\`), deterministic for the same
input. The worker (\`services/worker\`) reads the signal, runs it, and writes the result in one transaction.

## Knowledge shipped in the repository (no network at enrichment time)

| file (\`packages/enrichment/src/data/\`) | content | source |
|---|---|---|
| \`advisories.osv.json\` | ${advisories.records.length} curated advisories for AI libraries and tools (${Object.entries(
    verification,
  )
    .map(([k, n]) => `${n} ${k}`)
    .join(
      ', ',
    )}) as OSV records, the feed \`curated\`; the database adds the PyPA feed and any imported one (docs/advisories.md) | the project's research list of AI CVEs; each record keeps its \`source\` URL and \`verification\` in \`database_specific\` |
| \`atlas.json\` | MITRE ATLAS ${ATLAS_VERSION} in full: ${ATLAS_TECHNIQUES.size} techniques and sub-techniques, ${ATLAS_TACTICS.size} tactics (ids, names, tactics, URLs) | mitre-atlas/atlas-data \`dist/ATLAS.yaml\` (Apache-2.0), converted by \`scripts/build-atlas.ts\` |
| \`mcp-servers.json\` | ${KNOWN_SERVERS.length} well-known MCP servers (${KNOWN_SERVERS.map((s) => s.id).join(', ')}): published package names, name tokens, capabilities, whether their arguments are filesystem roots (R18/R19) | hand-curated from the reference servers (see its \`_source\`) |
| \`publishers.json\` | ${publishers.verified_publishers.length} verified publisher namespaces, ${publishers.well_known_names.length} well-known names (typosquat targets), ${publishers.not_typosquats.length} known look-alikes that are not squats | hand-curated (see its \`_source\`) |

Licences are checked against the SPDX License List (\`spdx-license-ids\`) and expressions parsed with
\`spdx-expression-parse\`; Hugging Face licence ids that are not SPDX ids (\`llama3\`, \`openrail\`, …) become
\`LicenseRef-<id>\`.

## Rule catalogue (${RULES.length} rules)

R00–R27 keep the ids of the project's original rule study; the last column says how each maps.
Every ATLAS id a rule cites must exist in \`atlas.json\`: \`defineRule\` refuses an unknown one and a test checks every id in the rule sources.

| id | title | default severity | base weight | rationale | MITRE ATLAS | remediation | research §3 |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Notes
- A finding may carry a severity other than the default: R18 read-only access is \`medium\`, R20 literal secrets are
  \`high\`, R23 takes the advisory's severity, \`threat_match\` takes the threat's severity.
- Each finding lists the capabilities it derives (\`shell_exec\`, \`filesystem_write\`, \`network_egress\`,
  \`credential_access\`, \`code_execution_on_load\`, …) and its evidence path in the manifest.
- Secrets are never copied into evidence, not even in part: R20 reports the kind of a token and where it is (a
  config key and its path, or the line and column in the manifest), and everything the engine outputs passes the
  redaction module (docs/security.md "Secrets never reach shared data").
- R15 compares the asset name, its publisher and dependency names with the well-known names
  (Damerau–Levenshtein ≤ 2, ≤ 1 for names of 5–6 chars; homoglyph folding 0→o, 1→l, rn→m, Cyrillic look-alikes).
- R23 matches an exact pin inside an advisory range, or a range whose every allowed version is affected (no fixed
  version satisfies it), in each ecosystem's own version order (PEP 440 for PyPI, semver for npm and Go; OSV
  ranges with \`introduced\`, \`fixed\`, \`last_affected\` and explicit \`versions\` lists: docs/advisories.md). An advisory whose
  \`verification\` is not \`primary\` (it rests on secondary sources) gives confidence ${SECONDARY_ADVISORY_CONFIDENCE}: the
  version match is exact but the advisory data is not confirmed, so it keeps most of its weight (still above the ${CONFIDENT} band threshold); its evidence and description say so.

${renderManifestsRecognised()}
## Calibration changes, with corpus examples

Each change below was made to close a disagreement with the labelled corpus (\`packages/enrichment/corpus/\`,
\`pnpm eval:enrichment --report-only\`; before/after in \`corpus/RESULTS.md\`). The expectations were not changed.

| rule | change | rationale | corpus example |
|---|---|---|---|
| (score) | calibrated bands: the worst finding sets its band floor, confidence < ${CONFIDENT} one band lower, diminishing returns inside the band | one medium finding scored 15 (low) and a high at 0.6 scored 21 (low); reviewers judge by the worst risk | c034 card without a licence: 15 → 44 (medium, as expected) |
| R14 | a Hugging Face model card published by an account that is not a verified vendor, while the card names another author: a vendor in an authorship line ("Developers: Granite Team, IBM", "Authors: Google", "Organization developing the model — The FAIR team of Meta AI"), a community author's own blog or organisation (erichartford.com, cognitivecomputations), or a link to the same model under another owner whose name differs only by repack suffixes (\`-hf\`, \`-Merged-Safetensors\`, \`-gguf\`); confidence 0.6 (one band lower: low on its own). Not for the vendor itself, a fine-tune linking its base, or an alike-spelled account (\`Bria-AI\` vs \`briaai\`) | a copy is not the vendor's release (no gated terms, no updates, possible tampering), but a copy of an Apache-2.0 card is a low risk on its own; licence and safety findings carry the rest | c096 IBM Granite card under jeremieconte: informational → low; c032 LLaMA-65B ("FAIR team of Meta AI"), c033 PygmalionAI link, c035 "Authors: Google", c037 erichartford.com |
| R05 | card prose stating remote code is needed ("trust_remote_code is required", "requires trust_remote_code") at 0.6, like a \`trust_remote_code=True\` snippet | the card says loading runs repository Python | c037 Dolphin 2.5 Mixtral |
| R08 | only for formats that carry a licence (cards, package manifests, pyproject, setup.cfg with \`[metadata]\`, MCPB) | Modelfiles, registry \`server.json\`, configs, listings, extension manifests never carry one: 30 of 36 firings were false positives | c027 Modelfile: low → informational |
| R05 | a diffusers \`_class_name\` that diffusers does not ship is loaded as repository code | \`PwnPipeline\` can only load through custom pipeline code | c081 \`ckpt-host\` model_index.json |
| R09, R10 | a data file of custom model licences (\`src/data/model-licences.json\`: Llama 1/2/3/3.1–3.3/4, Gemma, Qwen/Tongyi, OpenRAIL-M/++, CreativeML, BLOOM RAIL, Mistral research/non-production, DeepSeek, Falcon-180B, Yi, CC BY-NC/NC-SA/NC-ND/ND) matched by id or \`license_name\`: commercial use, attribution and field-of-use terms in the finding; medium severity; no commercial use → R09 | a known model licence is a use restriction a reviewer flags as medium, not a missing or malformed licence | c035 Gemma terms, c064 Llama 3.1 |
| R28 | npm \`SEE LICENSE IN <file>\` is no longer reported as non-SPDX | it is npm's documented form for a licence file | fixture 02 (mcp-server-everything) |
| R13 | Modelfile SYSTEM jailbreak ("always comply", "obey the user") is high with ATLAS AML.T0054/AML.T0051; card prose stating alignment removed ("no guardrails", "compliant to any requests") and the publisher's own uncensored/abliterated name or tag count at 0.8 | the guardrail removal is stated in the content, not guessed | c024 Dolphin "save the kittens" prompt: low → high; c041 "has no guardrails" |
| R17 | offensive-security tools (Kali, nmap, sqlmap, metasploit, nuclei, DVWA, pentest/red-team) in MCP server names, descriptions, tool names, container images and RUN lines; shell launchers given \`-c\` (also through \`wsl.exe\`); the server's own description ("execute commands"); infrastructure servers (docker, kubernetes, ssh) at 0.6. Names count only for MCP servers and tool lists | a server that says it runs commands runs commands; a library named \`hydra\` or \`vllm_docker\` grants an agent nothing | c001/c005 Kali servers, c003 \`wsl.exe bash -c\`, c013 BashTerm, c070 pentest Dockerfile |
| R18 | a filesystem server whose root is a whole home directory or \`/\` (\`~\`, \`$HOME\`, \`/Users/x\`, \`C:\\\\Users\\\\x\`) is confident (1.0 → high) | the whole home holds ~/.ssh and cloud credentials | c010 server-filesystem on /Users/phatblat |
| R19 | extension host access to every site (\`<all_urls>\`, \`*://*/*\`, content scripts on every page); messaging servers (Twilio, SMS, Telegram…) at 0.8; swaps/limit orders/trading as payments | broad host access reads and changes every page; messaging reaches people outside the session | c057/c060 extensions, c087 twilio-sms, c016 1inch swaps |
| R20 | extension permissions that read sessions or credentials (\`cookies\`, \`webRequestBlocking\`, \`debugger\`, \`nativeMessaging\`, \`proxy\`); cloud/secret-store servers (aws, vault…) at 0.6 when no secret is configured | session cookies are credentials | c059, c062 |
| R21 | \`uv run --with <pkg>\` without a version (c088); requirement lines from a URL or VCS without a commit sha or \`#sha256=\` (editable local paths excepted); \`curl … \\| sh\` and \`git clone\`/\`pip install git+\` at a moving ref in Dockerfiles and notebooks; container images without a fixed tag (latest, main, master, nightly, \`\${VAR:-main}\`) at **low** severity | mutable code sources; a mutable image tag is a supply-chain gap a reviewer rates low | c046/c049/c095 requirements, c071 Dockerfile, c065–c068 compose |
| R22 | \`pip install\` of bare names in RUN lines / notebooks | unpinned build-time installs | c063 vLLM Dockerfile |
| R23 | an advisory on a *declared dependency* is capped at high and counts at ${DEPENDENCY_ADVISORY_CONFIDENCE} (one band lower); the asset itself at a vulnerable version keeps full weight; since 2026-11-29 a high or critical advisory in a direct AI dependency counts at full confidence ("Vulnerability calibration" below) | the CVE needs its code path and untrusted input: exposure, not compromise | old pins of non-AI libraries stay one band lower |
| R24 | compose \`privileged\`, \`network_mode: host\`, \`pid: host\`, \`cap_add\`, bind mounts of \`/\`, \`/etc\`, \`/root\`, home directories or the Docker socket | the container reaches the host | c069 Kali MCP on the host network |
| R26 | severity low → informational (weight 0, still reported) | absent annotations already default to destructive/open-world in clients; 0 of 4 corpus firings were a named risk | c021, c022 benign MCPB manifests |
| format_not_analysed | new (low): content recognised only as generic JSON/YAML/TOML/text | "not analysed" must never read as a clean 0 | any unrecognised JSON document |
| R21 | round 2: unpinned launchers (\`npx\`/\`uvx\` without a version or at \`@latest\`, \`uv run --with\`) and \`docker run\` images of MCP servers are **low**, like mutable container tags | the newest release at start is a supply-chain gap, not an exposure | c007 ESLint + Context7 through \`npx\`, c089 Microsoft toolkit \`@latest\`: medium → low |
| R17 | round 2: firewall and router administration servers (FortiGate, pfSense, OPNsense, MikroTik) count as infrastructure control (0.6) | their APIs change network policy and run device commands | c088 \`fortigate-mcp\` keeps medium with its launcher now low |
| R01 | round 2: pickle weights shipped next to a safetensors/GGUF/ONNX copy are a **low** finding (was none) | a loader that picks the pickle (older library, explicit file name) still executes it | c040 19 \`.bin\` shards beside safetensors: informational → low |
| R12 | round 2: a Modelfile built \`FROM\` a local weights file (a path or \`.gguf\`) names no base model (0.6) | whose weights they are is unknown | c028 \`FROM ./experiments/…/unsloth.Q5_K_M.gguf\`: informational → low |
| (parse) | round 2: prose submitted for a model or dataset, neither a licence text nor a listing, is read as its card | a README without front matter is still the card: licence and safety rules apply instead of "not analysed" | c083 one-line NSFW merge card: low (format_not_analysed) → medium (R08, R13) |
| R22 | round 2: by purpose — requirements files and published npm packages: any range; a private npm package (workspace root): none; Python library metadata (\`pyproject\`, \`setup.cfg\` of a \`package\`): only dependencies with no version constraint; \`setup.cfg\` now included | lower bounds are what a library is expected to declare (Python Packaging User Guide); nobody installs a private root | c055 private monorepo, c056 MCP Python SDK: low → informational; c076 sixteen bare \`install_requires\`: informational → low |
| R09, R10 | round 2: a card whose front matter says \`license: other\` defers to its text: a model licence named there (its full name or a multi-word alias from \`model-licences.json\`) or "non-commercial … license" counts at full confidence | the front matter points at the text for the licence | c032 "Non-commercial bespoke license": low → medium; c092 modified CreativeML OpenRAIL-M: low → medium |
| R14, R20 | round 2: a template (placeholder server name such as \`io.github.<owner>/<server-name>\`): the placeholder finding is low and declared credentials count at 0.6 (a literal secret stays high) | nothing is published or run from a template | c090 registry sample \`server.json\`: medium → low |
| R18 | round 2: file tools whose descriptions name a cloud document store (Google Drive, Dropbox, OneDrive, SharePoint, S3, iCloud Drive) count at 0.6 | they change versioned account documents, not the host's disk | c019 Google Drive update/upload/delete: high → medium |
| R17, R18, R19 | round 2: a package that publishes itself as an MCP server (\`mcpName\`) is judged by its own description, like a registry \`server.json\` | "MCP server for terminal operations" says what it gives an agent | c053 Desktop Commander \`package.json\`: medium → high |
| R25 | round 2: compose \`ports\` published on every host interface are recorded (informational, weight 0) | publishing a port is how a compose file runs a server at all; scored, it was a false positive on 4 of 5 corpus compose files | c025 Ollama on \`11434:11434\` |
| R25 | round 2: Gradio \`share=True\` (in code that calls \`.launch(\`) or a \`--share\` flag in notebooks and container commands | a share link publishes the app on the internet through a tunnel | c079 notebook (\`public_exposure\`) |
| R18 | round 2: destructive tool names other than file operations (\`delete_app\`, \`dropTable\`, \`terminate_instance\`) at 0.6, unless annotated read-only or \`destructiveHint: false\` | the name says what the tool destroys | none in the corpus yet (unit test) |
| R17, R18, R19 | round 2: input-schema parameter names count — \`command\`/\`cmd\`/\`script\`/\`code\` → shell, \`url\`/\`endpoint\` → network egress, \`path\`/\`file_path\`/\`directory\` → file read | what a tool takes says what it does, whatever its name | none in the corpus changes band (unit test) |
| R21 | round 2: a launcher given as a full path (\`/usr/local/bin/npx\`, \`…\\\\npx.cmd\`) is the same launcher | a full path starts the same launcher, so it fetches the same moving release | none in the corpus (unit test) |
| R29 | new (high): toxic combinations — fetched web content + a shell tool (high), credentials + network egress (flagged at medium), an uncensored model that runs repository code (high); confidence = the weaker finding's | each capability is judged alone elsewhere; together they are an injection-to-execution or exfiltration path | c005 fetch + Kali shell, c062/c058 cookies + every site, c037 uncensored + trust_remote_code |
| (parse) | round 2: a licence file is identified from its wording (MIT, Apache-2.0, GPL/LGPL/AGPL, BSD, MPL-2.0, Unlicense, CC BY-NC 4.0, and the model licences of \`model-licences.json\` by name); \`config.json\` \`_name_or_path\` (the Hub id of another model than the named asset; not a copy of the same name under another owner) is the lineage | the licence is where the text is; the config names the weights it was saved from | none in the corpus changes band (unit tests) |

## Scoring

Each finding has \`weight = base(severity) × confidence\` with base critical 60, high 35, medium 15, low 5,
informational 0, and confidence 1.0 (confirmed from manifest data), ${SECONDARY_ADVISORY_CONFIDENCE} (advisory from secondary sources),
0.6 (heuristic / name-based) or 0.3 (inferred from prose). Threat findings (\`threat_match\`) have
\`weight = risk_penalty\` of the matching threat.

\`\`\`
${SCORE_FORMULA}
\`\`\`

### Scoring model (calibrated bands)

A reviewer judges an asset by its worst risk first, then by how much else is wrong. The score does the same:

1. **Band of a finding.** Its severity, or one band lower when its confidence is below ${CONFIDENT} (a heuristic
   high at 0.6 is a medium; a prose-inferred medium at 0.3 is a low). Weight-0 findings (R00, informational) set no band.
2. **Floor.** The worst band among the rule findings sets the floor: informational 0, low 10, medium 40, high 70,
   critical 90. A confident high therefore always stays in high, and one confident medium finding reaches medium.
3. **Diminishing returns inside the band.** \`fill = 1 − Π(1 − wᵢ/100)\` over every rule finding (the worst included),
   and \`base = floor + room · fill\` where room is the band's width less one (9, 29, 29, 19, 10). Each further finding
   adds less, and rule findings alone never cross into the next band: ten mediums are still medium (a reviewer
   escalates on a worse risk, not on a count).
4. **Threats.** \`total = min(100, base + Σ risk_penaltyⱼ)\`, \`intrinsic_risk_score = round(total)\`.

Worked examples (numbers asserted in \`test/score.test.ts\`):

| findings | band | base | score |
|---|---|---|---:|
| one R22 (low, 1.0 → 5) | low | 10 + 29 · 0.05 = 11.45 | 11 |
| one R09 (medium, 1.0 → 15) | medium | 40 + 29 · 0.15 = 44.35 | 44 |
| two mediums (15, 15) | medium | 40 + 29 · (1 − 0.85²) = 48.05 | 48 |
| twenty mediums | medium | 40 + 29 · (1 − 0.85²⁰) = 67.9 | 68 |
| R15 (high, 0.6 → 21) | medium (confidence < ${CONFIDENT}) | 40 + 29 · 0.21 = 46.09 | 46 |
| R05 (high, 1.0 → 35) | high | 70 + 19 · 0.35 = 76.65 | 77 |
| R05 (35) + R09 (15) | high | 70 + 19 · (1 − 0.65 · 0.85) = 78.5 | 79 |
| R16 (critical, 1.0 → 60) | critical | 90 + 10 · 0.6 = 96 | 96 |
| R09 (15) + threats 20 and 5 | medium | 44.35, + 25 | 69 |

Properties (fast-check tests in \`packages/enrichment/test/score.test.ts\`): 0 ≤ score ≤ 100; adding a finding never
lowers the score (a new worst band starts above the old band's top); the result does not depend on finding order;
the integer contributions sum exactly to the score.

Differences from the research recommendation (enrichment.md §6), on purpose:
- R00 positive signals are recorded with weight 0 instead of subtracting up to 10: a subtraction would let an added
  finding lower the score, which the monotonicity requirement forbids.
- No publisher multiplier on the score: publisher trust is reported on its own (\`publisher_trust\`), and a typosquat
  or unverifiable namespace already raises the score through R14/R15.

Contributions (\`score_contribution\` per finding, \`score_breakdown\` on the asset): findings are sorted worst first
(band, then weight, then rule id, then input order); the first carries the floor plus \`room · w₁/100\`, finding i
carries \`room · Π_{j<i}(1 − w_j/100) · wᵢ/100\` (these sum to \`base\`); threat shares are their penalties; everything
is scaled by \`total/(base + Σ penalties)\` when capped. The exact shares are rounded with the largest-remainder
method, so the integer contributions sum exactly to \`intrinsic_risk_score\`. \`score_breakdown.band\` names the band
that set the floor and \`score_breakdown.score_confidence\` is \`low\` when content was recognised but not analysed
(a \`format_not_analysed\` finding), so a low score there never reads as a clean bill of health.

Severity bands ([public-api.md](public-api.md#severity-bands); defined once in \`packages/contracts/src/severity.ts\`): ≥ 90 critical, ≥ 70 high,
≥ 40 medium, ≥ 10 low, else informational.

## Launch semantics (what a manifest makes happen)

Rules read *what runs*, not which words appear: \`src/rules/signals/launch.ts\` reads every launch command a format
carries — MCP servers' \`command\` + \`args\` (a shell's \`-c\` script split into its words), Dockerfile
\`RUN\`/\`CMD\`/\`ENTRYPOINT\`, compose \`command\`/\`entrypoint\`, notebook \`!\`/\`%\` shell lines — and the environment
they set (MCP \`env\`, \`docker run -e K=V\`, Dockerfile \`ENV\`, compose \`environment\`, notebook \`%env\`). The same
reader serves every format, so a flag means the same in a Dockerfile as in an MCP config.

| semantic | rule (severity) | example |
|---|---|---|
| \`--trust-remote-code\` (or \`trust_remote_code=True\`) in a launch: the model repository's Python runs on the host | R05 (high) | a vLLM Dockerfile \`CMD ["--model", "org/m", "--trust-remote-code"]\` |
| \`trust_remote_code=True\` in a model card's own loading code (prose that only mentions the flag stays at 0.6) | R05 (high) | holdout-external 04, Qwen-72B card: medium → **high** (79) |
| \`--allow-write /\`, \`--root ~\`, Deno \`-A\`: write access to the whole disk or a home directory | R18 (high) | \`npx -y fs-server@1.0.0 --allow-write /\` |
| \`docker run\` anywhere (a shell script, a RUN line, a cell) with \`--privileged\`, \`--network host\`, \`--pid host\`, \`--cap-add\`, or a mount of \`/\`, \`/etc\`, \`/root\`, a whole home directory or the Docker socket (a project folder inside a home directory is an ordinary bind mount) | R24 (high) | \`bash -c "docker run --privileged -v /:/host img"\` |
| \`curl … \\| sh\` in a server's launch script: whatever the URL serves runs on every start | R21 (medium) | \`{"command": "bash", "args": ["-c", "curl -fsSL https://x/i.sh \\| sh"]}\` |
| a secret written into launch arguments: \`--password …\`, \`--api-key=…\`, or \`scheme://user:password@host\` (reported by place, never by value) | R20 (high) | \`server-postgres postgresql://admin:<password>@db:5432/prod\` |
| a credential requested at run time — VS Code \`\${input:…}\` prompts, \`\${env:…}\` — is **never** an exposed secret: the finding is "Credential requested at run time" (the server still acts with it) | R20 (medium) | \`"env": {"GITHUB_TOKEN": "\${input:gh}"}\` |
| a token passed while its endpoint variable points at another host (\`HF_ENDPOINT\`, \`OPENAI_BASE_URL\`, \`ANTHROPIC_BASE_URL\`): the token goes to a party that did not issue it; through a proxy variable one band lower. Loopback, compose service names and dummy keys (\`EMPTY\`) are not redirects | R20 (high / medium) | \`HF_ENDPOINT=https://hf-mirror.com\` + \`HUGGING_FACE_HUB_TOKEN=\${HF_TOKEN}\` |
| an endpoint variable (\`*_URL\`, \`*_ENDPOINT\`, \`*_BASE\`, \`*_HOST\`, proxies) over plain \`http\` to any machine but this one, private ranges included; MCP server URLs and URLs handed to a bridge (\`npx mcp-remote http://10.0.0.2/sse\`) likewise | R25 (medium) | \`ENV OPENAI_BASE_URL=http://10.0.0.5:8000/v1\` |
| a package that names a vendor in \`authors\` (Anthropic, OpenAI, Google, Microsoft, Hugging Face, Meta) while its source repository, homepage or npm scope belongs to someone else (an unscoped npm package is never the vendor's: vendors publish under their scopes) | R14 (medium) | holdout-external 18, kali-mcp-server: \`authors = Anthropic, PBC.\` from ba0f3/kali-mcp-docker |
| tools or a server description that install other servers, packages or plugins | R21 (medium) | a tool \`install_mcp_server\` |
| an MCP package (asset type \`mcp_server\`, or a dependency on an MCP SDK) is judged by its own description, like a server entry; any package that says a model or agent runs code is code execution | R17 (high) | holdout-external 17 "An MCP server to run arbitrary commands": medium → **high** (79); corpus c078 open-interpreter "Ask GPT-4 to run code locally" |
| tools that read or change secrets (\`get_secret\`, \`set_env\`, \`list_api_keys\`) | R20 (medium) | holdout-external 19, vibekit \`vibekit_set_env\` |
| a destructive tool whose own description says the effect is permanent ("permanently", "cannot be undone"): no guess from a name (0.6) but the tool's word | R18 (high) | holdout-external 19, vibekit \`vibekit_delete_app\` "Delete a hosted app permanently": medium → **high** (79) |
| an extension limited to a few named sites reads and changes what the user types there | R19 (low) | holdout-external 29, CoPrompt on four AI chat sites: informational → **low** (11) |

**Dependency constraints** follow each ecosystem's semantics before they are matched against advisories
(\`src/advisories/spec-bounds.ts\`): PEP 440 specifier sets through \`@renovatebot/pep440\`; Poetry's caret and tilde
(\`^1.2.3\` < 2.0.0, \`^0.2.3\` < 0.3.0, \`^0.0.237\` < 0.0.238 — a caret on 0.0.x pins one version — \`~1.2.3\` < 1.3.0);
npm ranges through \`semver\`. A constraint that admits only vulnerable versions matches the advisory; one that admits
a fixed version does not. \`langchain = "^0.0.237"\` matches langchain's advisories fixed after 0.0.237.

### Vulnerability calibration

The severity of an R23 finding is the advisory's own: \`database_specific.severity\`, else the ecosystem's, else the
CVSS v3 base score (docs/advisories.md "Severity"); a record without any counts as high. Then the dependency's role:

- **The asset itself** at a vulnerable version: the advisory's severity at full confidence.
- **A direct AI dependency** (declared by the manifest, not resolved by a lock, and an AI library — one the curated
  feed covers: torch, transformers, gradio, langchain, llama-cpp-python, keras, mlflow, …) with a **high or critical**
  advisory: capped at high, full confidence — the library is what the asset exists to call, so the vulnerable code path
  is the asset's own. One such advisory carries the asset into high.
- **Any other dependency** (non-AI libraries, lock entries, low/medium advisories): capped at high and counted at
  ${DEPENDENCY_ADVISORY_CONFIDENCE}, one band lower — reachability unknown.

Worked examples from the external hold-out set (\`../shared/data/holdout-external\`, figures of \`pnpm eval:enrichment\`):

| file | dependency → advisory | role | finding | asset |
|---|---|---|---|---|
| 26 openai-cookbook requirements | \`transformers==4.30.0\` → CVE-2023-6730 (critical, RagRetriever pickle), CVE-2023-7018 (high) | direct AI dependency | high, confidence 1 (critical capped) | **high** (88): 70 + 19 · (1 − Π(1 − wᵢ/100)) |
| 26 (same file) | \`urllib3==1.26.13\` → CVE-2023-43804 (high); \`aiohttp==3.8.5\` → CVE-2024-23334 (high) | non-AI dependencies | high at ${DEPENDENCY_ADVISORY_CONFIDENCE} → counts as medium | adds inside the band only |
| 26 (same file) | \`transformers==4.30.0\` → CVE-2024-3568 (low) | direct AI dependency, low advisory | low at ${DEPENDENCY_ADVISORY_CONFIDENCE} | adds inside the band only |
| 25 LLaVA pyproject | \`torch==2.0.1\` → CVE-2025-32434 (critical, secondary source: ${SECONDARY_ADVISORY_CONFIDENCE}); \`transformers==4.31.0\`, \`gradio==3.35.2\` → high | direct AI dependencies | high | **high** (87; expected high–critical) |
| 24 text-generation-webui requirements | \`gradio==3.33.1\` → CVE-2023-34239 (PyPA record, high), CVE-2023-51449 | direct AI dependency | high | **high** (86); \`llama-cpp-python==0.1.77\` is outside CVE-2024-34359 and is not reported |
| 27 computer-use-demo requirements | no advisory; ranges on anthropic/boto3 | — | R22 low | **low** (11) |

Before this calibration the three vulnerable-pin files scored medium (59–67): every dependency advisory counted one
band lower. Two corpus reviewers disagreed on such pins (corpus c044–c095 medium, external 24–26 high); the corpus
history records the change of five expectations to high with this reason.

**Licence missing** (R08) on Python project metadata (\`pyproject.toml\`, \`setup.cfg\`) is **low**: the licence often
sits in a classifier or a LICENSE file that setuptools, hatchling and PEP 639 \`license-files\` ship by default, so a
missing field is a metadata gap, not evidence of no licence. Formats that carry no licence (configs, file listings,
weight indexes) never get R08.

**False positives** are measured on every set (\`pnpm eval:enrichment\`): corpus false-positive findings per benign
asset, and on the external set a finding above the reviewer's expected range on a benign asset; both stay ≤ 0.1.

## Publisher trust

\`{publisher, verified, level, score, factors[]}\`: baseline 30; +50 when the publisher is on the shipped verified list;
+3 per org that submitted signals for the asset (max +15); age since first seen +10 (≥ 365 d), +6 (≥ 90 d), +3
(≥ 30 d), −5 (< 7 d); −30 for each R14/R15/R16 finding; −10 without a publisher; clamped to 0–100.
Level: \`suspicious\` if such a finding exists and the publisher is not verified, else \`verified\`, else
\`established\` (≥ 3 orgs and ≥ 90 days), else \`unknown\`.

## Benchmark summary

From the model card's \`model-index\` (\`results[].task/dataset/metrics\`): \`{source: "model-index", results[], count,
safety: {status, flags}}\`, \`safety.status\` = \`degraded\` when R13 fired; \`null\` when the card has no model-index.

## AI-BOM

- \`json\`: \`bom_version\`, the SPDX document, a normalized component inventory (type, name, version, purl where one
  exists, licence, supplier, download location, hashes) and lineage (\`base_models[{id, relation}]\`, parents, datasets)
  from \`base_model\` / \`base_model_relation\` (inferred when absent: adapter, quantized, merge, finetune; a Modelfile
  \`FROM\` gives \`unknown\`, \`adapter\` with \`ADAPTER\`), or \`null\`.
- \`spdx_json\`: SPDX 2.3 JSON, validated in tests against the official schema (ajv) plus the checks the schema leaves out
  (documentNamespace URI without \`#\`, \`SPDXRef-\` ids, unique ids, \`SPDXRef-DOCUMENT DESCRIBES\` the asset, ISO
  dates, licence expressions, LicenseRefs with extracted text). Lineage is \`DESCENDANT_OF\`, datasets are packages with
  \`DEPENDS_ON\` (comment \`trainedOn\`), and AI properties sit in an \`OTHER\` annotation whose JSON keys are SPDX 3.0.1
  AI-profile properties (\`ai:typeOfModel\`, \`ai:domain\`, \`ai:hyperparameter\` and \`ai:metric\` as DictionaryEntry
  lists, \`ai:informationAboutTraining\`, \`ai:limitation\`, \`ai:safetyRiskAssessment\`); \`hf:\` and \`risk:\` keys
  hold what the AI profile has no property for.
- \`spdx_tv\`: the same document in tag-value; tests parse it back and compare it with the JSON.
- \`cyclonedx_json\`: CycloneDX 1.6 with the asset as a \`machine-learning-model\` component with a \`modelCard\`
  (parameters, quantitative analysis from model-index, properties) and \`pedigree.ancestors\` for lineage; validated with
  \`@cyclonedx/cyclonedx-library\`'s JSON validator.
- \`spdx3_json\`: SPDX 3.0.1 JSON-LD (Core, Software, SimpleLicensing, AI and Dataset profiles), rendered on request
  from the stored AI-BOM by \`src/aibom/spdx3.ts\`: models are \`ai_AIPackage\` with the \`ai:\` properties above,
  datasets \`dataset_DatasetPackage\`, lineage \`descendantOf\` / \`trainedOn\` relationships; validated against the
  published JSON schema ([formats.md](formats.md#spdx-301)).
- \`bom_version\` increases by one each time the BOM's content hash changes (the clock is not part of it); every version
  is kept (one \`aiboms\` row per version) and the document namespace changes with it.
`;
}

if (require.main === module) {
  writeFileSync(DOC_PATH, renderEnrichmentDoc());
  console.log(`wrote ${DOC_PATH} (${RULES.length} rules)`);
  writeFileSync(FORMATS_DOC_PATH, renderFormatsDoc());
  console.log(`wrote ${FORMATS_DOC_PATH} (${FORMATS.length} manifest formats)`);
}
