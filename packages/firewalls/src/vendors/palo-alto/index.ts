// Palo Alto Networks PAN-OS: XML API connector, first-match → PAN-DB compiler, PAN-DB category ids, simulator.
import type { FirewallVendor } from '../../vendor';
import { compilePanos } from './compile';
import { PaloAltoConnector } from './connector';
import { panDbNames, panGranularAiCategory } from './pan-db';
import { startPanosSimulator } from './simulator';

export const paloAlto: FirewallVendor = {
  product: 'PAN-OS',
  connector: (connection, context) => new PaloAltoConnector(connection, context),
  compile: compilePanos,
  categoryColumn: 'pan_os',
  categoryIds: panDbNames,
  aiCategoryColumns: (category) => ({ pan_os_granular: panGranularAiCategory(category.id) }),
  simulator: {
    defaultPort: 8443,
    exampleName: 'pa-sim',
    start: (options) => startPanosSimulator(options),
    banner: (url, apiKey) =>
      `PAN-OS XML API simulator on ${url}/api/ (self-signed TLS; X-PAN-KEY or key=${apiKey}; keygen user admin / password admin)`,
  },
};
