// Rules on the platform's own verdicts for the files an asset names by hash (docs/artifacts.md "Judgement"): a file
// the analyser found malicious or suspicious, a pickle it found benign, a file it could not verify. The verdicts come
// from the shared `artifacts` table through EnrichmentInput.artifact_verdicts, never from what a client reported.
import type { ArtifactVerdictRecord, ArtifactVerdictValue, ModelFile } from '../types';
import { truncate } from '../util';
import { defineRule, type Emission, type RuleContext } from './define';

/** At most this many findings per rule and verdict: one per file, the rest counted in the last one's evidence. */
const MAX_FILES_PER_RULE = 20;
/** At most this many analyser findings quoted as evidence of one file. */
const MAX_EVIDENCE_FINDINGS = 10;

/** Analyser formats whose loading runs the pickle VM (docs/artifacts.md "Formats"). */
const PICKLE_FORMATS = new Set(['pickle', 'pytorch_zip', 'pytorch_legacy', 'joblib', 'numpy', 'numpy_npz']);

/** One named file with the platform's verdict for its bytes. */
export interface JudgedFile {
  path: string;
  sha256: string;
  record: ArtifactVerdictRecord;
}

/** The files the manifest and the signal name whose hash has a platform verdict, once per path, in file order. */
export function judgedFiles(ctx: RuleContext): JudgedFile[] {
  const verdicts = ctx.input.artifact_verdicts;
  if (!verdicts || verdicts.length === 0) return [];
  const bySha = new Map(verdicts.map((v) => [v.sha256, v]));
  const seen = new Set<string>();
  const out: JudgedFile[] = [];
  for (const f of ctx.p.files as readonly ModelFile[]) {
    if (!f.sha256 || seen.has(f.path)) continue;
    const record = bySha.get(f.sha256);
    if (!record) continue;
    seen.add(f.path);
    out.push({ path: f.path, sha256: f.sha256, record });
  }
  return out;
}

/** The platform verdict of each named path (only paths with one). */
export function verdictByPath(ctx: RuleContext): Map<string, ArtifactVerdictValue> {
  return new Map(judgedFiles(ctx).map((j) => [j.path, j.record.verdict]));
}

/** The evidence of one judged file: where it is, which bytes, and what the analyser saw (callable, member, offset). */
function fileEvidence(j: JudgedFile): Record<string, unknown> {
  return {
    path: j.path,
    sha256: j.sha256,
    format: j.record.format,
    verdict: j.record.verdict,
    analyser_version: j.record.analyser_version,
    scanned_at: j.record.scanned_at,
    analyser_findings: j.record.findings.slice(0, MAX_EVIDENCE_FINDINGS).map((f) => ({
      id: f.id,
      message: truncate(f.message, 200),
      ...(f.evidence.callable !== undefined ? { callable: truncate(f.evidence.callable, 200) } : {}),
      ...(f.evidence.member !== undefined ? { member: truncate(f.evidence.member, 200) } : {}),
      ...(f.evidence.offset !== undefined ? { offset: f.evidence.offset } : {}),
      ...(f.evidence.excerpt !== undefined ? { excerpt: truncate(f.evidence.excerpt, 200) } : {}),
    })),
  };
}

/** What the analyser found, in one sentence part: the first finding's message and its callable or member. */
function firstFinding(j: JudgedFile): string {
  const f = j.record.findings[0];
  if (!f) return '';
  const where = f.evidence.callable ?? f.evidence.member;
  return `: ${truncate(f.message, 120)}${where ? ` (${truncate(where, 80)})` : ''}`;
}

/** One emission per file with one of `verdicts`, capped; the last capped one counts the files left out. */
function perFile(
  ctx: RuleContext,
  verdicts: readonly ArtifactVerdictValue[],
  emit: (j: JudgedFile) => Emission,
): Emission[] {
  const files = judgedFiles(ctx).filter((j) => verdicts.includes(j.record.verdict));
  const out = files.slice(0, MAX_FILES_PER_RULE).map(emit);
  const last = out[out.length - 1];
  if (last && files.length > MAX_FILES_PER_RULE)
    last.evidence = { ...last.evidence, more_files: files.length - MAX_FILES_PER_RULE };
  return out;
}

export const ARTIFACT_MALICIOUS = defineRule({
  id: 'artifact_malicious',
  title: 'File scanned malicious',
  severity: 'critical',
  weight: 60,
  category: 'unsafe_serialization',
  rationale:
    "The platform's artifact analyser read the file's bytes and found that loading it runs a dangerous callable (command or code execution, import machinery, file or network I/O), a Lambda layer, a template sandbox escape or a path escape.",
  remediation: 'Do not load the file. Remove it from the asset, report it to the hub, and use a safetensors export.',
  attack_techniques: ['AML.T0018.002', 'AML.T0011.000'],
  references: ['docs/artifacts.md "Judgement"'],
  evaluate(ctx) {
    return perFile(ctx, ['malicious'], (j) => ({
      title: `File scanned malicious: ${truncate(j.path, 160)}`,
      description: `The analyser found ${j.path} (${j.record.format}) malicious${firstFinding(j)}.`,
      evidence: fileEvidence(j),
      capabilities: ['code_execution_on_load'],
    }));
  },
});

export const ARTIFACT_SUSPICIOUS = defineRule({
  id: 'artifact_suspicious',
  title: 'File scanned suspicious',
  severity: 'high',
  weight: 35,
  category: 'unsafe_serialization',
  rationale:
    "The platform's artifact analyser read the file's bytes and found content a reviewer must see before loading: a callable on neither the safe nor the dangerous list, functions rebuilt from bytecode, a crafted archive, a custom operator, code in metadata.",
  remediation:
    "Review the analyser's findings (callable, member, offset) before loading; prefer a safetensors or GGUF copy.",
  attack_techniques: ['AML.T0011.000', 'AML.T0010.003'],
  references: ['docs/artifacts.md "Judgement"'],
  evaluate(ctx) {
    return perFile(ctx, ['suspicious'], (j) => ({
      title: `File scanned suspicious: ${truncate(j.path, 160)}`,
      description: `The analyser found ${j.path} (${j.record.format}) suspicious${firstFinding(j)}.`,
      evidence: fileEvidence(j),
      capabilities: ['code_execution_on_load'],
    }));
  },
});

export const ARTIFACT_UNVERIFIED = defineRule({
  id: 'artifact_unverified',
  title: 'File could not be verified',
  severity: 'medium',
  weight: 15,
  category: 'unsafe_serialization',
  rationale:
    'The analyser could not give the file a clean verdict: it is malformed or truncated (invalid), or encrypted, over a cap or compressed with a codec it lacks (unscannable). Nothing dangerous was seen, but nothing proves the file safe, and loaders may still read what the analyser could not.',
  remediation:
    'Re-export the file from its source, or upload an intact, unencrypted copy to POST /v1/artifacts; load it only in a sandbox until then.',
  attack_techniques: ['AML.T0010.003'],
  references: ['docs/artifacts.md "Judgement"'],
  evaluate(ctx) {
    return perFile(ctx, ['invalid', 'unscannable'], (j) => ({
      title: `File could not be verified: ${truncate(j.path, 160)}`,
      description: `The analyser found ${j.path} ${j.record.verdict === 'invalid' ? 'malformed or truncated' : 'unscannable'}${firstFinding(j)}.`,
      evidence: fileEvidence(j),
    }));
  },
});

export const PICKLE_SCANNED_BENIGN = defineRule({
  id: 'pickle_scanned_benign',
  title: 'Pickle-format file scanned clean',
  severity: 'low',
  weight: 5,
  category: 'unsafe_serialization',
  rationale:
    'The file is pickle-based, so loading it runs the pickle VM, but the analyser walked every opcode and found only known-safe callables (tensor rebuilders, OrderedDict, NumPy reconstructors). The verdict holds for these bytes only: a different file under the same name is unscanned again.',
  remediation: 'Load it with weights_only=True; prefer a safetensors copy when one is published.',
  attack_techniques: ['AML.T0011.000'],
  references: ['docs/artifacts.md "Judgement"'],
  evaluate(ctx) {
    const files = judgedFiles(ctx).filter((j) => j.record.verdict === 'benign' && PICKLE_FORMATS.has(j.record.format));
    if (files.length === 0) return [];
    return [
      {
        description: `${files.length} pickle-based file(s) scanned clean: only known-safe callables.`,
        evidence: {
          path: 'files',
          files: files.slice(0, MAX_FILES_PER_RULE).map((j) => ({
            path: j.path,
            sha256: j.sha256,
            format: j.record.format,
            analyser_version: j.record.analyser_version,
          })),
          count: files.length,
        },
        capabilities: ['code_execution_on_load'],
      },
    ];
  },
});
