#!/usr/bin/env node
// The `risk-scan` executable: the package ships TypeScript sources (like every package of this workspace), run
// through tsx's loader, so `npx @risk/scanner scan .` and a global install work without a build step.
'use strict';
const { register } = require('tsx/cjs/api');
register();
require('../src/main.ts');
