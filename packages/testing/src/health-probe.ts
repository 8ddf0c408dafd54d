// A health probe in a process of its own, for the tests that hold a service's event loop to a bound while it
// serves hostile input (the worker's analysis budget, the public API's suppression globs). Measured from the test
// process, a latency would also count the time that process spends on the test itself (supertest runs an app
// in-process), and a probe whose own event loop is the one stalled would not even send its request on time.
import { spawn } from 'node:child_process';

const PROBE_SCRIPT = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const url = process.argv[1];
let stopping = false;
process.on('SIGTERM', () => { stopping = true; });
(function once() {
  if (stopping) return process.exit(0);
  const t0 = performance.now();
  let done = false;
  const finish = (ok) => {
    if (done) return;
    done = true;
    process.stdout.write((ok ? String(performance.now() - t0) : 'Infinity') + '\\n');
    setTimeout(once, 100);
  };
  const req = http.get(url, { timeout: 10000 }, (res) => { res.resume(); res.on('end', () => finish(res.statusCode === 200)); });
  req.on('timeout', () => { req.destroy(); finish(false); });
  req.on('error', () => finish(false));
})();
`;

export interface HealthProbe {
  /** resolves once the probe has had its first answer (start the load after it, so no stall goes unprobed) */
  ready: Promise<void>;
  /**
   * stops the probe; each answer's latency in ms, in order (a request that failed or took over 10 s: Infinity; longer
   * than any bound the tests scale from 1 s, at most 8×, so a slow answer is reported as slow, not as lost)
   */
  stop(): Promise<number[]>;
}

/** Polls `url` (a service's /healthz) every 100 ms from a separate process. */
export function probeHealth(url: string): HealthProbe {
  const child = spawn(process.execPath, ['-e', PROBE_SCRIPT, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let firstAnswer: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (firstAnswer = resolve));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('\n')) firstAnswer();
  });
  return {
    ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      return out
        .split('\n')
        .filter((l) => l !== '')
        .map(Number);
    },
  };
}
