// The firewall vendors the admin API accepts (packages/contracts FIREWALL_TYPE_VALUES) and their names.
import type { Firewall } from '../../api/types';

export type FirewallType = Firewall['type'];
const LABELS: Record<FirewallType, string> = { palo_alto: 'Palo Alto PAN-OS', fortinet: 'Fortinet FortiOS' };
export const FIREWALL_TYPES = Object.keys(LABELS) as FirewallType[];

export function firewallTypeLabel(type: FirewallType): string {
  return LABELS[type] ?? type;
}
