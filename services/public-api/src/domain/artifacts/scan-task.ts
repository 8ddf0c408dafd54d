/**
 * What runs inside an upload scan thread (scan-pool.ts): the analyser on a spill file whose digest the API computed
 * as the bytes arrived. Threads load this file bundled by esbuild (@risk/thread-pool taskFile), or through
 * scan-task-entry.cjs, which registers tsx first, should bundling fail.
 */
import { analyseHashedFile, type ArtifactResult } from '@risk/artifacts';
import { budgetedTask } from '@risk/thread-pool';

export interface ScanTask {
  path: string;
  sha256: string;
  size: number;
}

export default budgetedTask(
  (task: ScanTask): Promise<ArtifactResult> =>
    analyseHashedFile(task.path, { sha256: task.sha256, size: task.size }),
);
