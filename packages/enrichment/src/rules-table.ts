import type { Severity } from './types';

export interface RuleDef { id: string; title: string; severity: Severity; weight: number; category: string; rationale: string; attack_techniques: string[]; remediation: string }

/** Base weight per severity (enrichment.md §6); a finding's weight = base × confidence. */
export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 60, high: 35, medium: 15, low: 5, informational: 0 };

const r = (id: string, title: string, severity: Severity, category: string, attack_techniques: string[], rationale: string, remediation: string): RuleDef => ({
  id, title, severity, weight: SEVERITY_WEIGHT[severity], category, rationale, attack_techniques, remediation,
});

/** Rule table (enrichment.md §3 R00–R27 plus R28 and two service rules). ATLAS ids exist in src/data/atlas-techniques.json. */
export const RULES: ReadonlyArray<RuleDef> = [
  r('R00', 'Positive provenance signals', 'informational', 'provenance', [], 'safetensors-only weights, pinned versions, declared licence: recorded for transparency; weight 0 so the score stays monotonic.', 'None needed.'),
  r('R01', 'Pickle-based weight files without a safetensors alternative', 'high', 'unsafe_serialization', ['AML.T0011.000', 'AML.T0010.003'], 'Loading .bin/.pt/.pth/.ckpt/.pkl/.pickle/.joblib/.dill runs the pickle VM, which can execute arbitrary code.', 'Prefer a safetensors/GGUF/ONNX copy; scan pickles (ModelScan/picklescan) and load with weights_only=True.'),
  r('R02', 'Pickle imports dangerous callables (critical list)', 'critical', 'unsafe_serialization', ['AML.T0018.002', 'AML.T0011.000'], 'GLOBAL/STACK_GLOBAL opcodes import os/subprocess/builtins.eval etc. (ModelScan CRITICAL list): code runs at load.', 'Do not load the file; report it to the hub; use a safetensors export.'),
  r('R03', 'Pickle imports network-capable modules', 'high', 'unsafe_serialization', ['AML.T0086', 'AML.T0011.000'], 'webbrowser/httplib/requests/aiohttp imports in a pickle (ModelScan HIGH list) suggest exfiltration at load.', 'Do not load the file; inspect the pickle opcodes in a sandbox.'),
  r('R04', 'Keras Lambda layer or non-Keras module in model config', 'high', 'unsafe_serialization', ['AML.T0011.000', 'AML.T0018.002'], 'Lambda layers carry marshalled Python executed on load (CVE-2024-3660, CVE-2025-1550).', 'Load with safe_mode=True on a fixed Keras version; replace Lambda layers with registered custom layers.'),
  r('R05', 'Remote code required to load the model', 'high', 'remote_code', ['AML.T0011.000', 'AML.T0010.003'], 'auto_map / trust_remote_code=True / shipped *.py make transformers import repository Python at load time.', 'Review the repository Python, pin a revision (commit sha), or use a native architecture.'),
  r('R06', 'Chat template with Jinja sandbox-escape primitives', 'critical', 'template_injection', ['AML.T0011.000', 'AML.T0018.002'], 'GGUF tokenizer.chat_template with __class__/__globals__/popen reproduces CVE-2024-34359.', 'Render templates only in a sandboxed Jinja environment; update llama-cpp-python ≥0.2.72.'),
  r('R07', 'Model runtime loads native code or escapes its directory', 'high', 'unsafe_serialization', ['AML.T0011.000', 'AML.T0010.003'], 'custom_ops_library / .so/.dll files or external_data paths with .. (CVE-2022-25882 class) load native code or read outside the model dir.', 'Remove custom ops or build them from reviewed source; reject external data paths outside the model directory.'),
  r('R08', 'Licence missing', 'medium', 'license', ['AML.T0010'], 'No declared licence: legal exposure and a provenance gap.', 'Ask the publisher for a licence or do not redistribute/use commercially.'),
  r('R09', 'Non-commercial or research-only licence', 'medium', 'license', [], 'cc-by-nc*, commercial: no, or research-only licence text forbid commercial use.', 'Get a commercial licence or replace the asset.'),
  r('R10', 'Use-restricted or custom licence', 'low', 'license', [], 'Llama/Gemma/OpenRAIL/other licences carry use restrictions that flow to derivatives.', 'Review the licence terms and record acceptance; propagate obligations downstream.'),
  r('R11', 'Declared licence conflicts with the base model licence', 'medium', 'license', ['AML.T0010.003'], 'A derivative declares a more permissive licence than the base model it inherits from.', 'Apply the base model licence to the derivative.'),
  r('R12', 'Lineage missing or inconsistent', 'medium', 'provenance', ['AML.T0074'], 'Derived models (LoRA, quantized, fine-tuned) without base_model, or name vs config disagreeing, hide provenance (masquerading).', 'Declare base_model and base_model_relation in the model card.'),
  r('R13', 'Safety alignment removed or NSFW model', 'medium', 'safety', ['AML.T0054'], 'abliterated/uncensored/NSFW models have refusal behaviour removed.', 'Do not expose to end users without an external guardrail.'),
  r('R14', 'Publisher unverifiable or re-upload', 'medium', 'provenance', ['AML.T0111', 'AML.T0074'], 'Namespace does not match the repository owner, placeholder names, or a vendor model re-uploaded by another account.', 'Use the vendor\'s official repository; verify namespace ownership.'),
  r('R15', 'Typosquat-like name', 'high', 'supply_chain', ['AML.T0011.001', 'AML.T0060'], 'Name within Damerau–Levenshtein 2 (or a homoglyph) of a well-known package/publisher.', 'Check the exact name and publisher; use the canonical package.'),
  r('R16', 'Tool description poisoning', 'critical', 'prompt_injection', ['AML.T0110', 'AML.T0051.001', 'AML.T0104'], 'Hidden instructions in tool descriptions (<IMPORTANT>, ignore previous, secret paths, invisible characters) steer the agent.', 'Remove the server; pin reviewed tool descriptions and alert on changes.'),
  r('R17', 'Shell or code execution capability', 'high', 'capability', ['AML.T0050', 'AML.T0053'], 'Tools that run shell commands or code give the model arbitrary execution.', 'Run in a sandbox with an allow-list and human approval.'),
  r('R18', 'Filesystem write/delete or repository manipulation', 'high', 'capability', ['AML.T0101', 'AML.T0098'], 'Write/delete/commit tools can destroy or tamper with data; read-only file access is medium.', 'Restrict allowed directories, require confirmation for destructive tools.'),
  r('R19', 'Network egress, browser or payment capability', 'medium', 'capability', ['AML.T0086'], 'Fetch/browser/payment tools allow exfiltration and open-world side effects.', 'Restrict egress with an allow-list; require approval for transactions.'),
  r('R20', 'Credential access or exposed secret', 'medium', 'secrets', ['AML.T0055', 'AML.T0083'], 'Env keys like *TOKEN*/*SECRET*/*KEY* give the server credentials; a literal token in a manifest is leaked (high).', 'Move secrets to a secret store, rotate any leaked token, scope credentials minimally.'),
  r('R21', 'Unpinned launcher or image', 'medium', 'supply_chain', ['AML.T0109'], 'npx/uvx/pipx/bunx without @version, npx -y, :latest or untagged images fetch whatever is published next (rug pull).', 'Pin an exact version or digest.'),
  r('R22', 'Dependency version ranges', 'low', 'supply_chain', ['AML.T0010.001'], 'Ranges (^, ~, >=, *, bare names) make builds non-reproducible and pull new releases automatically.', 'Pin versions with a lockfile.'),
  r('R23', 'Known vulnerable version', 'high', 'vulnerability', ['AML.T0010.001'], 'A package/dependency version lies inside an advisory range from the shipped advisories (severity per advisory).', 'Upgrade to the fixed version named in the advisory.'),
  r('R24', 'Privileged container configuration', 'high', 'capability', ['AML.T0105'], '--privileged, host network, docker.sock or $HOME mounts let the server escape its container.', 'Drop privileges, mount only required paths read-only.'),
  r('R25', 'Insecure remote transport', 'medium', 'network', ['AML.T0049'], 'Remote MCP over plain http (non-loopback), SSE without auth, or binding 0.0.0.0 exposes the server.', 'Use https with authentication; bind to loopback.'),
  r('R26', 'Tools without annotations', 'low', 'capability', ['AML.T0053'], 'Absent annotations default to destructive + open-world per the MCP spec.', 'Ask the publisher to annotate tools; treat them as destructive.'),
  r('R27', 'Code-executing LLM chain referenced', 'high', 'capability', ['AML.T0050', 'AML.T0051'], 'LLMMathChain, PALChain, PythonREPLTool, PandasQueryEngine execute model output (CVE-2023-29374 etc.).', 'Replace with sandboxed execution or remove the chain.'),
  r('R28', 'Licence is not a valid SPDX identifier', 'low', 'license', [], 'A declared licence that is neither an SPDX id/expression nor a known Hugging Face licence id cannot be evaluated automatically.', 'Declare an SPDX identifier or LicenseRef with the licence text.'),
  r('manifest_unparseable', 'Manifest could not be parsed', 'low', 'manifest', [], 'The raw manifest is malformed JSON/YAML/TOML; analysis used the text fallback.', 'Resubmit a well-formed manifest.'),
  r('threat_match', 'Matches a known threat', 'high', 'threat', [], 'The asset matches a threat from the threat catalogue; weight = the threat\'s risk_penalty, added on top of the base score.', 'Follow the threat\'s remediation.'),
];

export const RULE_BY_ID: ReadonlyMap<string, RuleDef> = new Map(RULES.map((x) => [x.id, x]));
