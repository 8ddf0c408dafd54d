'use strict';
// The fallback file piscina loads in each scan thread when the esbuild bundle of scan-task.ts cannot be built
// (scan-pool.ts): a worker thread does not inherit tsx or jest's transform, so it registers tsx's CommonJS hooks itself.
require('tsx/cjs/api').register();
module.exports = require('./scan-task.ts');
