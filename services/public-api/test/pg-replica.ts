// A throw-away Postgres primary and its streaming replica on spare ports, for the read-replica suite
// (docs/scaling.md "Read replicas"). The shared server on 5432 is left alone: making it a replication source would
// need a pg_hba change and a copy of every suite's database, so the suite starts its own pair and removes it after.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@risk/testing';

export interface PgPair {
  primaryUrl: string;
  replicaUrl: string;
  stop(): void;
}

/** The newest installed server's bin directory; a missing toolchain fails the suite with what to install. */
function serverBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const bin = versions.sort((a, b) => Number(b) - Number(a)).map((v) => path.join(root, v, 'bin'))[0];
  const missing = ['initdb', 'pg_ctl', 'pg_basebackup'].filter((t) => !bin || !existsSync(path.join(bin, t)));
  if (!bin || missing.length)
    throw new Error(
      `the read-replica suite needs the PostgreSQL server tools (${missing.join(', ')} not found under ${root}/<version>/bin): install Debian's postgresql package`,
    );
  return bin;
}

/** Postgres refuses to run as root: as root, the tools run as the `postgres` user on directories it owns. */
function runner(): { run(tool: string, args: string[]): void; own(dir: string): void } {
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? execFileSync('id', ['-u', 'postgres']).toString().trim() : '';
  const gid = asRoot ? execFileSync('id', ['-g', 'postgres']).toString().trim() : '';
  return {
    run: (tool, args) => {
      const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args];
      execFileSync(cmd, argv, { stdio: 'pipe', timeout: 30_000 });
    },
    own: (dir) => {
      if (asRoot) chownSync(dir, Number(ids), Number(gid));
    },
  };
}

export async function startPgPair(): Promise<PgPair> {
  const bin = serverBin();
  const { run, own } = runner();
  const dir = mkdtempSync(path.join(tmpdir(), 'risk-replica-'));
  own(dir);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  // durability off: a test cluster, and the suite's time is mostly fsyncs otherwise
  const common = `-c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const started: string[] = [];
  /** Starts the cluster in `dataDir` with `options`, logging next to it; stop() stops it. */
  const startServer = (dataDir: string, options: string) => {
    run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', `${dataDir}.log`, '-o', options, '-w', 'start']);
    started.push(dataDir);
  };
  const stop = () => {
    for (const d of started.reverse()) {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', d, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // initdb's trust pg_hba admits replication connections from 127.0.0.1
    run(path.join(bin, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    startServer(primaryDir, `-p ${primaryPort} ${common} -c wal_level=replica -c max_wal_senders=4`);
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming replica
    run(path.join(bin, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    startServer(replicaDir, `-p ${replicaPort} ${common} -c hot_standby=on`);
  } catch (err) {
    stop();
    throw err;
  }
  return {
    primaryUrl: `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`,
    stop,
  };
}
