'use strict';
// The file piscina loads in each analysis thread. A worker thread starts as plain Node.js: it inherits
// neither the parent's `--import tsx` loader hooks reliably nor anything from jest's transform, so it
// registers tsx's CommonJS hooks itself and then requires the TypeScript task (docs/security.md,
// "Analysis under a budget"). Registering is idempotent enough: a second require hook for .ts is a no-op
// when tsx is already active in the thread.
require('tsx/cjs/api').register();
module.exports = require('./task.ts');
