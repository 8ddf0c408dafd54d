// Fortinet FortiOS: REST API v2 connector, first-match → static URL filter + FortiGuard compiler, FortiGuard
// category ids, simulator.
import type { FirewallVendor } from '../../vendor';
import { compileFortios } from './compile';
import { FortinetConnector } from './connector';
import { fortiguardIds } from './fortiguard';
import { startFortinetSimulator } from './simulator';

export const fortinet: FirewallVendor = {
  product: 'FortiOS',
  connector: (connection, context) => new FortinetConnector(connection, context),
  compile: compileFortios,
  categoryColumn: 'fortiguard',
  categoryIds: fortiguardIds,
  aiCategoryColumns: () => ({}),
  simulator: {
    defaultPort: 9443,
    exampleName: 'fg-sim',
    start: (options) => startFortinetSimulator(options),
    banner: (url, apiKey) =>
      `FortiOS REST API simulator on ${url}/api/v2/ (self-signed TLS; Authorization: Bearer ${apiKey})`,
  },
};
