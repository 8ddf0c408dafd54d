// The read replica's replay lag on /metrics (docs/scaling.md "Read replicas"): lists read on DATABASE_READ_URL lag
// behind writes by this much, so a lag that grows is visible before users notice stale lists.
import { collectOnScrape, replicaLag } from '@risk/common/observability';
import { withTimeout } from '@risk/common/queue';
import { replicaLagSeconds } from '@risk/db';
import type { ReadDb } from './deps';

/** Refreshes risk_db_replica_lag_seconds on every scrape (0 when reads use the primary); returns its removal. */
export function collectReplicaLag(readDb: Pick<ReadDb, 'pool'>): () => void {
  return collectOnScrape(async () => {
    replicaLag.set(await withTimeout(replicaLagSeconds(readDb.pool), 1000, 'replica lag'));
  });
}
