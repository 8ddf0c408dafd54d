'use strict';
// The file reply threads load when reply-task.ts cannot be bundled (reply-parser.ts, @risk/thread-pool taskFile):
// a worker thread starts as plain Node.js, so it registers tsx's CommonJS hooks itself, then requires the task.
require('tsx/cjs/api').register();
module.exports = require('./reply-task.ts');
