import { inflateRawSync } from 'node:zlib';
import { fromBytes } from '../random-access';
import { analyseKerasConfig, analyseKerasH5 } from './keras';
import { datasetBytes, labelledFiles, utf8 } from '../../test/support';
import { verdictOf } from '../index';

/** One member of a zip by walking its local headers (stored or deflated): enough to read a .keras test file. */
function zipMember(zip: Uint8Array, name: string): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.length);
  for (let at = 0; at + 30 <= zip.length && view.getUint32(at, true) === 0x04034b50;) {
    const method = view.getUint16(at + 8, true);
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const start = at + 30 + nameLength + extraLength;
    if (Buffer.from(zip.subarray(at + 30, at + 30 + nameLength)).toString('utf8') === name) {
      const data = zip.subarray(start, start + size);
      return method === 0 ? data : new Uint8Array(inflateRawSync(data));
    }
    at = start + size;
  }
  throw new Error(`${name} not found`);
}

const config = (value: unknown): Uint8Array => new Uint8Array(utf8(JSON.stringify(value)));
const judge = (value: unknown) => verdictOf(analyseKerasConfig(config(value), 'config.json'));
const sequential = (...layers: unknown[]) => ({
  module: 'keras',
  class_name: 'Sequential',
  config: { name: 'sequential', layers },
  registered_name: null,
});
const dense = {
  module: 'keras.layers',
  class_name: 'Dense',
  config: { units: 4, activation: 'relu' },
  registered_name: null,
};

/** A minimal HDF5-looking file: the signature, then each text run between NUL bytes at the given offsets. */
function h5(runs: [number, string][], size = 8192): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  for (const [offset, text] of runs) bytes.set(utf8(text), offset);
  return bytes;
}

describe('Keras analysers on the labelled data set', () => {
  it('has the labelled Keras files to judge', () => {
    expect(labelledFiles('keras_v3').length + labelledFiles('keras_h5').length).toBeGreaterThanOrEqual(3);
  });

  it.each(labelledFiles('keras_v3').map((f) => [f.file, f.verdict] as const))(
    '%s (config.json) is %s',
    (file, expected) => {
      const analysis = analyseKerasConfig(zipMember(datasetBytes(file), 'config.json'), 'config.json');
      expect(verdictOf(analysis)).toBe(expected);
    },
  );

  it('reads the custom registered object of the .keras sample as a fact, not a finding', () => {
    const zip = datasetBytes('files/keras/pre_pr22362_nested_container.keras');
    const analysis = analyseKerasConfig(zipMember(zip, 'config.json'), 'config.json');
    expect(analysis.facts.custom_objects).toEqual(['legacy_nested_container>NestedDenseModel']);
  });

  it('keeps the weights HDF5 that Keras wrote inside the .keras sample benign', async () => {
    const weights = zipMember(datasetBytes('files/keras/pre_pr22362_nested_container.keras'), 'model.weights.h5');
    const analysis = await analyseKerasH5(fromBytes(weights));
    expect(verdictOf(analysis)).toBe('benign');
    expect(analysis.facts.model_config).toBe('absent');
  });

  it.each(labelledFiles('keras_h5').map((f) => [f.file, f.verdict] as const))('%s is %s', async (file, expected) => {
    const analysis = await analyseKerasH5(fromBytes(datasetBytes(file)));
    expect(verdictOf(analysis)).toBe(expected);
    expect(analysis.facts.model_config).toBe('present');
    if (expected === 'malicious') {
      expect(analysis.findings[0]).toMatchObject({ id: 'keras.lambda_code', evidence: { member: 'model_config' } });
      expect(analysis.findings[0]!.evidence.excerpt).toContain('eval');
    }
  });
});

describe('Keras config.json on hand-written configs', () => {
  it('accepts Keras-namespace layers and a registered custom object as benign', () => {
    const custom = { module: null, class_name: 'MyBlock', config: {}, registered_name: 'my_pkg>MyBlock' };
    expect(judge(sequential(dense, custom))).toBe('benign');
  });

  it('calls a serialized lambda (marshalled bytecode) malicious', () => {
    const lambda = {
      module: 'keras.layers',
      class_name: 'Lambda',
      config: {
        name: 'lambda',
        function: {
          class_name: '__lambda__',
          config: { code: '4wEAAAAAAAAAAAAAAAEAAAADAAAA8wQAAABkAVMAKQJO', defaults: null, closure: null },
        },
      },
      registered_name: null,
    };
    expect(judge(sequential(dense, lambda))).toBe('malicious');
  });

  it('calls an object rebuilt from os or subprocess malicious (CVE-2025-1550 class)', () => {
    const gadget = { module: 'os', class_name: 'system', config: 'id', registered_name: 'system' };
    expect(judge(sequential(dense, { ...dense, config: { units: 4, activation: gadget } }))).toBe('malicious');
    const registered = { module: null, class_name: 'Popen', config: {}, registered_name: 'subprocess>Popen' };
    expect(judge(sequential(registered))).toBe('malicious');
  });

  it('calls a layer from a module outside the Keras namespaces suspicious', () => {
    expect(judge(sequential({ ...dense, module: 'third_party.layers', class_name: 'Fancy' }))).toBe('suspicious');
  });

  it('calls a Lambda naming a builtins function malicious and one naming a package function suspicious', () => {
    const named = (module: string, fn: string) => ({
      class_name: 'Lambda',
      config: { function: fn, function_type: 'function', module },
    });
    expect(judge(sequential(named('builtins', 'exec')))).toBe('malicious');
    expect(judge(sequential(named('my_project.ops', 'swish')))).toBe('suspicious');
  });

  it('calls a TFOpLambda that writes files suspicious and keeps arithmetic ones benign', () => {
    const op = (fn: string) => ({ class_name: 'TFOpLambda', config: { function: fn }, registered_name: null });
    expect(judge(sequential(op('io.write_file')))).toBe('suspicious');
    expect(judge(sequential(op('math.add'), op('__operators__.getitem')))).toBe('benign');
  });

  it('reads Keras 3 compile_config losses and metrics', () => {
    const model = (compile: unknown) => ({ ...sequential(dense), compile_config: compile });
    expect(judge(model({ loss: 'mean_squared_error', metrics: ['accuracy', 'AUC', 'MAE'] }))).toBe('benign');
    expect(judge(model({ loss: 'exfiltrating_loss', metrics: ['accuracy'] }))).toBe('suspicious');
  });

  it('walks a config holding an array of 200,000 items', () => {
    const withBigArray = { ...sequential(dense), weights: new Array<number>(200_000).fill(0) };
    expect(judge(withBigArray)).toBe('benign');
    const losses = new Array<string>(200_000).fill('mean_squared_error');
    expect(judge({ ...sequential(dense), compile_config: { loss: { out: 'mae' }, metrics: losses } })).toBe('benign');
  });

  it.each([
    ['bytes that are not JSON', new Uint8Array(utf8('{"class_name": '))],
    ['a JSON array', new Uint8Array(utf8('[]'))],
  ])('calls %s invalid', (_what, bytes) => {
    expect(verdictOf(analyseKerasConfig(bytes, 'config.json'))).toBe('invalid');
  });
});

describe('Keras HDF5 on hand-written files', () => {
  const lambdaConfig = (fn: unknown) =>
    JSON.stringify({
      class_name: 'Sequential',
      config: { name: 'm', layers: [{ class_name: 'Lambda', config: { function: fn, function_type: 'lambda' } }] },
    });

  it('calls a legacy Lambda with base64 marshalled bytecode malicious', async () => {
    const bytes = h5([
      [800, 'model_config'],
      [1024, lambdaConfig(['4wEAAAAAAAAAAAAAAAEAAAACAAAAQwAAAHMIAAAAdABkAYMBUwApAk4=', null, null])],
    ]);
    expect(verdictOf(await analyseKerasH5(fromBytes(bytes)))).toBe('malicious');
  });

  it('reads keys in any order and JSON escapes that spell Lambda', async () => {
    const escaped =
      '{"config": {"layers": [{"config": {"function": "lambda x: x"}, "class_name": "\\u004cambda"}]}, "class_name": "Sequential"}';
    const bytes = h5([
      [800, 'model_config'],
      [2000, escaped],
    ]);
    const analysis = await analyseKerasH5(fromBytes(bytes));
    expect(verdictOf(analysis)).toBe('malicious');
  });

  it('finds a config stored with leading whitespace (json.loads accepts it)', async () => {
    const bytes = h5([
      [800, 'model_config'],
      [1024, `  \n ${lambdaConfig(['4wEAAAAAAAAAAAAAAAEAAAACAAAAQwAAAHMIAAAAdABkAYMBUwApAk4=', null, null])}`],
    ]);
    expect(verdictOf(await analyseKerasH5(fromBytes(bytes)))).toBe('malicious');
  });

  it('finds a config that straddles the 4 MiB read boundary', async () => {
    const size = (4 << 20) + 4096;
    const bytes = h5(
      [
        [800, 'model_config'],
        [(4 << 20) - 40, lambdaConfig('lambda x: __import__("os").system("id")')],
      ],
      size,
    );
    expect(verdictOf(await analyseKerasH5(fromBytes(bytes)))).toBe('malicious');
  });

  it('calls a file packed with tiny JSON documents unscannable instead of collecting them all', async () => {
    const runs: [number, string][] = [];
    for (let offset = 1024; offset < 1024 + 20_001 * 8; offset += 8) runs.push([offset, '{"a":1}']);
    const analysis = await analyseKerasH5(fromBytes(h5(runs, 1024 + 20_001 * 8 + 16)));
    expect(verdictOf(analysis)).toBe('unscannable');
  });

  it('calls a file without the HDF5 signature invalid', async () => {
    expect(verdictOf(await analyseKerasH5(fromBytes(new Uint8Array(utf8('not hdf5 at all')))))).toBe('invalid');
  });

  it('calls a model_config it cannot read as JSON unscannable, never benign', async () => {
    const bytes = h5([
      [800, 'model_config'],
      [1024, '{"class_name": "Sequential", "config": {"layers": ['],
    ]);
    expect(verdictOf(await analyseKerasH5(fromBytes(bytes)))).toBe('unscannable');
  });

  it('calls attributes in a compressed fractal heap unscannable', async () => {
    const bytes = h5([[900, 'FRHP']]);
    bytes.set([0x00, 0x08, 0x00, 0x10, 0x00], 904); // version 0, heap id length 8, I/O filter length 16
    expect(verdictOf(await analyseKerasH5(fromBytes(bytes)))).toBe('unscannable');
  });

  it('calls a custom layer class and a custom loss suspicious (code the loading process must supply)', async () => {
    const customLayer = JSON.stringify({
      class_name: 'Sequential',
      config: { layers: [{ class_name: 'MaliciousLayer', config: { name: 'malicious_layer' } }] },
    });
    expect(verdictOf(await analyseKerasH5(fromBytes(h5([[1024, customLayer]]))))).toBe('suspicious');
    const training = JSON.stringify({ loss: { out: 'steal_gradients' }, metrics: ['accuracy'], optimizer_config: {} });
    const dense1 = JSON.stringify({
      class_name: 'Sequential',
      config: { layers: [{ class_name: 'Dense', config: {} }] },
    });
    const analysis = await analyseKerasH5(
      fromBytes(
        h5([
          [1024, dense1],
          [3000, training],
        ]),
      ),
    );
    expect(verdictOf(analysis)).toBe('suspicious');
    expect(analysis.findings[0]).toMatchObject({ id: 'keras.custom_loss_or_metric' });
  });

  it('keeps a compiled model with Keras losses and metric wrappers benign', async () => {
    const metric = { class_name: 'MeanMetricWrapper', config: { name: 'accuracy', fn: 'categorical_accuracy' } };
    const training = JSON.stringify({
      loss: 'categorical_crossentropy',
      metrics: [[metric]],
      optimizer_config: { class_name: 'Custom>Adam', config: { learning_rate: 0.001 } },
    });
    const dense1 = JSON.stringify({
      class_name: 'Sequential',
      config: { layers: [{ class_name: 'Dense', config: {} }] },
    });
    expect(
      verdictOf(
        await analyseKerasH5(
          fromBytes(
            h5([
              [1024, dense1],
              [3000, training],
            ]),
          ),
        ),
      ),
    ).toBe('benign');
  });

  it('keeps a Dense-only model_config benign', async () => {
    const bytes = h5([
      [800, 'model_config'],
      [
        1024,
        JSON.stringify({
          class_name: 'Sequential',
          config: { layers: [{ class_name: 'Dense', config: { units: 1 } }] },
        }),
      ],
    ]);
    expect(verdictOf(await analyseKerasH5(fromBytes(bytes)))).toBe('benign');
  });
});
