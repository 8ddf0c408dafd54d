// The vendor registry: firewall type → its folder under src/vendors/. Everything that differs per vendor (connector,
// compiler, category ids, simulator) is reached through here, so adding a vendor is one folder plus one line below
// (docs/firewalls.md "Adding a vendor").
import { FIREWALL_TYPE_VALUES, type FirewallTypeId } from '@risk/contracts';
import type { AiCategory } from './categories';
import type { FirewallConnection, FirewallConnector } from './connector/types';
import type { FirewallVendor, VendorConnectorContext } from './vendor';
import { fortinet } from './vendors/fortinet';
import { paloAlto } from './vendors/palo-alto';

// Keyed by exactly the vendor ids of @risk/contracts (FIREWALL_TYPE_VALUES, which sits below this package): an id
// without its line here is a missing property, a line without its id an excess one — either fails typecheck.
export const FIREWALL_VENDORS = {
  palo_alto: paloAlto,
  fortinet,
} as const satisfies Record<FirewallTypeId, FirewallVendor>;

export type FirewallType = FirewallTypeId;
export const FIREWALL_TYPES: readonly FirewallType[] = FIREWALL_TYPE_VALUES;

export function vendorOf(type: FirewallType): FirewallVendor {
  return FIREWALL_VENDORS[type];
}

export function createConnector(connection: FirewallConnection, context: VendorConnectorContext): FirewallConnector {
  return vendorOf(connection.type).connector(connection, context);
}

/** Every vendor's category ids for one of our general categories, keyed by the vendor's column (`pan_os`, …). */
export function vendorCategoryColumns(categoryId: string): Record<string, readonly (string | number)[]> {
  return Object.fromEntries(Object.values(FIREWALL_VENDORS).map((v) => [v.categoryColumn, v.categoryIds(categoryId)]));
}

/** Every vendor's extra fields for one AI category. */
export function vendorAiCategoryColumns(category: AiCategory): Record<string, unknown> {
  return Object.assign({}, ...Object.values(FIREWALL_VENDORS).map((v) => v.aiCategoryColumns(category))) as Record<
    string,
    unknown
  >;
}
