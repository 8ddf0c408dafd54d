/**
 * What runs inside a scan thread (scan-pool.ts): the analyser on a spill file whose digest the caller computed as
 * the bytes arrived. Threads load this file bundled by esbuild (@risk/thread-pool taskFile), or through
 * scan-task-entry.cjs, which registers tsx first, should bundling fail.
 */
import { budgetedTask } from '@risk/thread-pool';
import { analyseHashedFile } from './index';
import type { ScanTask } from './scan-pool';
import type { ArtifactResult } from './types';

export default budgetedTask((task: ScanTask): Promise<ArtifactResult> =>
  analyseHashedFile(task.path, { sha256: task.sha256, size: task.size }),
);
