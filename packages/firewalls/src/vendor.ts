// What a firewall vendor folder (src/vendors/<vendor>/index.ts) hands the registry: everything vendor-specific the
// admin API, the worker and the simulator CLI need, so none of them names a vendor (docs/firewalls.md).
import type { AiCategory } from './categories';
import type { ConnectorContext } from './connector/https-client';
import type { FirewallConnection, FirewallConnector } from './connector/types';
import type { PolicyModel } from './policy/policy-model';
import type { SimulatorHandle } from './simulators/tls';

export interface VendorConnectorContext extends ConnectorContext {
  /** delay between commit-job polls, where the vendor has them (tests shorten it) */
  pollIntervalMs?: number;
}

export interface FirewallVendor {
  /** product name used in messages, e.g. "PAN-OS" */
  product: string;
  connector(connection: FirewallConnection, context: VendorConnectorContext): FirewallConnector;
  /** our policy model → the vendor's objects (pure; the connector pushes them); `warnings` say what cannot be kept */
  compile(policy: PolicyModel): { warnings: string[] };
  /** the field that carries this vendor's category ids in GET /policies/v1/categories, e.g. `pan_os` */
  categoryColumn: string;
  /** the vendor's category ids for one of our general categories (empty: the vendor has none) */
  categoryIds(categoryId: string): readonly (string | number)[];
  /** vendor fields added to an AI category in GET /policies/v1/categories/ai (none: `{}`) */
  aiCategoryColumns(category: AiCategory): Record<string, unknown>;
  simulator: VendorSimulator;
}

export interface VendorSimulator {
  defaultPort: number;
  /** the name the CLI's registration hint gives the firewall */
  exampleName: string;
  start(options: { port?: number; apiKey: string }): Promise<SimulatorHandle<unknown>>;
  /** one line for a person: where it listens and how it authenticates */
  banner(url: string, apiKey: string): string;
}
