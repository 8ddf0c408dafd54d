// Waits in tests scaled by how busy the machine is (CONTRIBUTING.md "Tests that hold under load"); @risk/testing's
// waitFor and every suite's jest timeout use it.
//
// A wait in a test (waitFor's deadline, jest's per-test timeout) is a hang detector: it is there to turn a real hang into
// a failure, not to assert a speed. A fixed one is a property of a machine: the same settle that takes 2 s on a quiet
// machine took over 20 s with the load average at 18 on two cores, and failed a 20 s waitFor. So every wait is stretched
// by the runnable tasks per core (the 1-minute load average over the cores), never shrunk, and by at most
// MAX_LOAD_FACTOR: on a quiet machine a real hang still fails after the written wait, on a busy one after a few minutes.
import { availableParallelism, loadavg } from 'node:os';

/** No load stretches a wait further than this (8 × waitFor's 20 s default is under three minutes). */
export const MAX_LOAD_FACTOR = 8;

/** Runnable tasks per core over the last minute, in [1, MAX_LOAD_FACTOR] (1 where the platform has no load average). */
export function loadFactor(): number {
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.min(MAX_LOAD_FACTOR, Math.max(1, perCore));
}

/** `ms` (a wait written for a quiet machine) stretched by the machine's load now. */
export function scaledByLoad(ms: number): number {
  return Math.round(ms * loadFactor());
}
