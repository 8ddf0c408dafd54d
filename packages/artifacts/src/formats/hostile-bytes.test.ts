import { fromBytes, type RandomAccess } from '../random-access';
import type { ArtifactFormat, FormatAnalysis } from '../types';
import { analyseGguf } from './gguf';
import { analyseKerasH5 } from './keras';
import { analyseOnnx } from './onnx';
import { analyseSafetensors } from './safetensors';
import { analyseSavedModel } from './savedmodel';
import { datasetBytes, labelledFiles } from '../../test/support';
import { verdictOf } from '../index';

// Every labelled file of these formats, cut short and corrupted byte by byte: an analyser must always answer with a
// verdict (never throw, never hang), and a cut safetensors or GGUF file is never benign.
const ANALYSERS: [ArtifactFormat, (file: RandomAccess) => Promise<FormatAnalysis>][] = [
  ['safetensors', analyseSafetensors],
  ['gguf', analyseGguf],
  ['onnx', analyseOnnx],
  ['tf_savedmodel', analyseSavedModel],
  ['keras_h5', analyseKerasH5],
];

/** A small deterministic generator (mulberry32) so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(ANALYSERS)('%s analyser on damaged labelled files', (format, analyse) => {
  const files = labelledFiles(format);

  it.each(files.map((f) => [f.file] as const))('answers for every cut and corruption of %s', async (file) => {
    const bytes = datasetBytes(file);
    const next = random(bytes.length);
    for (let i = 0; i < 12; i++) {
      const cut = Math.floor(next() * bytes.length);
      const analysis = await analyse(fromBytes(bytes.subarray(0, cut)));
      if (format === 'safetensors' || format === 'gguf') expect(verdictOf(analysis)).not.toBe('benign');
      const corrupted = new Uint8Array(bytes);
      // Corrupt the head, where the structure is: the bytes analysers read rather than skip.
      for (let k = 0; k < 4; k++)
        corrupted[Math.floor(next() * Math.min(bytes.length, 4096))] = Math.floor(next() * 256);
      await expect(analyse(fromBytes(corrupted))).resolves.toHaveProperty('format');
    }
  });
});
