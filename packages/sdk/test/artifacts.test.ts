// The SDK's artifact upload and reads against the real public API (scratch database and Redis prefix).
import { createHash } from 'node:crypto';
import { createHarness, type Harness } from '@risk/public-api/test/harness';
import { createPublicClient, NotFoundError, uploadArtifact, type PublicPaths, type RiskClient } from '../src';
import { listen, type Listening } from './servers';

let h: Harness;
let api: Listening;
let risk: RiskClient<PublicPaths>;

beforeAll(async () => {
  h = await createHarness('sdkartifacts');
  api = await listen(h.app);
  risk = createPublicClient({ baseUrl: api.url, apiKey: h.key });
});
afterAll(async () => {
  await api.close();
  await h.close();
});

test('uploads bytes as application/octet-stream and reads the verdict by hash, singly and in bulk', async () => {
  // `posix.system('id')` as a protocol-2 pickle: PROTO 2, GLOBAL, BINUNICODE 'id', TUPLE1, REDUCE, STOP
  const bytes = Buffer.concat([
    Buffer.from([0x80, 0x02]),
    Buffer.from('cposix\nsystem\nX\x02\x00\x00\x00id\x85R.', 'latin1'),
  ]);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const uploaded = await uploadArtifact(risk, bytes, { filename: 'model.pkl' });
  expect(uploaded).toMatchObject({ object: 'artifact', sha256, size: bytes.length, format: 'pickle' });
  expect(uploaded.verdict).toBe('malicious');

  const read = await risk.get('/v1/artifacts/{sha256}', { params: { path: { sha256 } } });
  expect(read).toEqual(uploaded);
  const lookup = await risk.get('/v1/artifacts/lookup', { params: { query: { sha256s: [sha256, '0'.repeat(64)] } } });
  expect(lookup.data.map((r) => r.artifact?.verdict ?? null)).toEqual(['malicious', null]);
  await expect(
    risk.get('/v1/artifacts/{sha256}', { params: { path: { sha256: 'e'.repeat(64) } } }),
  ).rejects.toBeInstanceOf(NotFoundError);
});
