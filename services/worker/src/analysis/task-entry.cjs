'use strict';
// The fallback file piscina loads in each analysis thread when the esbuild bundle of task.ts cannot be
// built (pool.ts, analysisTaskFile). A worker thread starts as plain Node.js: it does not reliably
// inherit the parent's `--import tsx` loader, and nothing from jest's transform, so it registers tsx's
// CommonJS hooks itself and then requires the TypeScript task (docs/security.md, "Analysis under a
// budget").
require('tsx/cjs/api').register();
module.exports = require('./task.ts');
