import { Pool } from 'pg';
import { createPrisma } from '../src';
import { TEST_SERVER_URL } from './scratch-database';

// Found by the fault suite (services/worker/faults/pg-terminate.fault.ts): a connection checked out of the
// pool (pool.connect(), as the enrichment enqueuer and the raw-SQL paths do) has no listener of pg-pool's,
// so when Postgres terminates its backend between two queries the pg Client emits an unhandled 'error'
// event and the whole API process exits. Every connection of createPrisma's pool now carries a listener
// (docs/reliability.md "Fault suite").
describe('createPrisma pool', () => {
  it('survives the backend of a checked-out connection being terminated', async () => {
    const db = createPrisma({ url: TEST_SERVER_URL, applicationName: 'risk-test-terminated', max: 2 });
    const admin = new Pool({ connectionString: TEST_SERVER_URL, max: 1 });
    const uncaught: Error[] = [];
    const onUncaught = (err: Error) => uncaught.push(err);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const client = await db.pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      // the socket closes while the client is checked out and idle
      const socket = (client as unknown as { connection: { stream: { destroyed: boolean } } }).connection.stream;
      for (let i = 0; i < 100 && !socket.destroyed && uncaught.length === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(uncaught).toEqual([]);
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(); // pg-pool discards a client that is no longer queryable
      const again = await db.pool.query<{ one: number }>('SELECT 1 AS one');
      expect(again.rows[0]!.one).toBe(1);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await admin.end();
      await db.close();
    }
  });
});
