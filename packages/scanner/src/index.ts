// The scanner as a library: the same scan the `risk-scan` command runs (docs/scanner.md).
export { main } from './cli';
export { scanTrees, type ScanOptions, type ScanResult } from './scan';
export { scanMachine, AGENT_CLIENTS, clientPaths } from './machine';
export { AssetCollector, type ScannedAsset } from './assets';
export { fingerprintOf } from './fingerprint';
