// The artifact analyser's result model (docs/artifacts.md). Every format analyser produces these; nothing here
// depends on how the bytes arrive (a file, an HTTP body, a zip member).

/** Formats the analyser recognises from the bytes (magic and structure), never from a file name. */
export type ArtifactFormat =
  | 'pickle'
  | 'pytorch_zip'
  | 'pytorch_legacy'
  | 'numpy'
  | 'numpy_npz'
  | 'joblib'
  | 'keras_v3'
  | 'keras_h5'
  | 'tf_savedmodel'
  | 'onnx'
  | 'gguf'
  | 'safetensors'
  | 'zip_other'
  | 'other';

/**
 * malicious: loading runs a dangerous callable. suspicious: something a careful reviewer must see (unknown callables,
 * custom ops, code in metadata). benign: only known-safe content. invalid: malformed or truncated (never benign).
 * unscannable: encrypted, over a cap, or otherwise not fully readable (never benign). unsupported: a type we do not
 * analyse (never a clean verdict).
 */
export type ArtifactVerdict = 'malicious' | 'suspicious' | 'benign' | 'invalid' | 'unscannable' | 'unsupported';

export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface ArtifactFinding {
  /** Stable machine id, e.g. `pickle.dangerous_callable`, `gguf.template_sandbox_escape`. */
  id: string;
  severity: FindingSeverity;
  /** The verdict this finding alone implies; the artifact's verdict is the worst of its findings. */
  verdict: Exclude<ArtifactVerdict, 'benign'>;
  message: string;
  evidence: {
    /** `module.qualname` a pickle would import and call. */
    callable?: string;
    /** Path of the archive member (nested: `outer.zip/inner.pkl`). */
    member?: string;
    /** Byte offset within the member (or the file when no member). */
    offset?: number;
    /** A short excerpt (template text, config snippet), at most 200 characters. */
    excerpt?: string;
  };
}

export interface ArtifactResult {
  format: ArtifactFormat;
  verdict: ArtifactVerdict;
  findings: ArtifactFinding[];
  /** Facts extracted (callables, tensor count, metadata keys, ...), format-specific and JSON-serialisable. */
  facts: Record<string, unknown>;
  analyser_version: string;
  sha256: string;
  size: number;
}

/** Order of severity for verdicts: the artifact's verdict is the maximum over its findings. */
export const VERDICT_RANK: Record<ArtifactVerdict, number> = {
  benign: 0,
  unsupported: 1,
  unscannable: 2,
  invalid: 3,
  suspicious: 4,
  malicious: 5,
};

/** The result of one format analyser over a whole in-memory member (formats inside archives, headers, configs). */
export interface FormatAnalysis {
  format: ArtifactFormat;
  findings: ArtifactFinding[];
  facts: Record<string, unknown>;
  /** Set when the bytes are not a valid instance of the format (truncated, inconsistent): verdict `invalid`. */
  invalid?: string;
  /** Set when the bytes cannot be fully analysed (encrypted, over a cap): verdict `unscannable`. */
  unscannable?: string;
}
