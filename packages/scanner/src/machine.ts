// placeholder replaced below
import type { ScanOptions, ScanResult } from './scan';
export async function scanMachine(
  _m: { home: string; platform: NodeJS.Platform; env: NodeJS.ProcessEnv },
  _o: ScanOptions,
  r: ScanResult,
): Promise<ScanResult> {
  return r;
}
