/**
 * The Prometheus text exposition format, read back by the scrape tests: one sample per line,
 * `name{label="value",...} number`. Enough for our output (prom-client escapes `\`, `"` and newlines
 * in label values); comments (# HELP, # TYPE) are skipped.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.push({ name: m[1]!, labels: parseLabels(m[2] ?? ''), value: Number(m[3]) });
  }
  return samples;
}

/** `a="x",b="y\"z"` → {a: 'x', b: 'y"z'}, read character by character (values may hold commas and quotes) */
function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('="', i);
    if (eq === -1) throw new Error(`bad label set: ${text}`);
    const name = text.slice(i, eq);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        j++;
        value += text[j] === 'n' ? '\n' : text[j];
      } else value += text[j];
    }
    labels[name] = value;
    i = text[j + 1] === ',' ? j + 2 : j + 1;
  }
  return labels;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${hits.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return hits[0]?.value ?? 0;
}

/** Every sample of `name` (all label sets). */
export function samplesOf(samples: readonly Sample[], name: string): Sample[] {
  return samples.filter((s) => s.name === name);
}
