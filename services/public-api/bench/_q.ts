import { QueueProducer } from '@risk/common';
async function main() {
  const p = new QueueProducer({ url: 'redis://127.0.0.1:6379', prefix: 'qbench' + Date.now() }, 'qb');
  await p.ping();
  for (let r = 0; r < 4; r++) {
    const jobs = Array.from({ length: 500 }, (_, i) => ({ fingerprint: `fp-${r}-${i}-${Math.random()}`, digest: 'x'.repeat(64), reason: 'new_asset' }));
    const t = performance.now();
    await p.enqueueEnrichment(jobs, 5000);
    console.log('500 jobs', (performance.now() - t).toFixed(1), 'ms');
  }
  const t = performance.now();
  for (let i = 0; i < 200; i++) await p.enqueueEnrichment([{ fingerprint: `one-${i}-${Math.random()}`, digest: 'y', reason: 'new_asset' }], 5000);
  console.log('1 job', ((performance.now() - t) / 200).toFixed(2), 'ms');
  await p.close();
}
main();
