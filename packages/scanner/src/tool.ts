// The scanner's name and version as its reports state them (SARIF driver, AI-BOM creator).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require('../package.json') as { version: string };

export const TOOL = { name: 'risk-scan', version: pkg.version } as const;
