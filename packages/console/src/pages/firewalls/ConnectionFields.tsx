// The fields of a firewall's connection, shared by the registration form (FirewallsPage) and the edit form
// (firewall/EditFirewall): name, vendor type, host and port inside the form row, and the TLS check below it.
// Registering needs every field; editing sends only what changed (firewall/firewall-changes.ts).
import { Field, type FormError } from '../../components/form';
import type { Draft } from '../firewall/firewall-changes';
import { FIREWALL_TYPES, firewallTypeLabel } from './firewall-types';

export interface ConnectionFieldsProps {
  draft: Draft;
  set: (k: keyof Draft) => (v: string | boolean) => void;
  error: FormError | null;
  /** registering a new firewall: host and port are required, the host capped at a DNS name's 253 characters */
  registering?: boolean;
}

export function ConnectionFields({ draft, set, error, registering }: ConnectionFieldsProps) {
  return (
    <>
      <Field label="Name" name="name" error={error}>
        <input required maxLength={100} value={draft.name} onChange={(e) => set('name')(e.target.value)} />
      </Field>
      <Field label="Type" name="type" error={error}>
        <select value={draft.type} onChange={(e) => set('type')(e.target.value)}>
          {FIREWALL_TYPES.map((t) => (
            <option key={t} value={t}>
              {firewallTypeLabel(t)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Host" name="host" error={error}>
        <input
          required
          maxLength={registering ? 253 : undefined}
          value={draft.host}
          onChange={(e) => set('host')(e.target.value)}
        />
      </Field>
      <Field label="Port" name="port" error={error}>
        <input
          type="number"
          min={1}
          max={65535}
          required={registering}
          value={draft.port}
          onChange={(e) => set('port')(e.target.value)}
        />
      </Field>
    </>
  );
}

export function VerifySslField({ draft, set }: Pick<ConnectionFieldsProps, 'draft' | 'set'>) {
  return (
    <label className="check">
      <input type="checkbox" checked={draft.verify_ssl} onChange={(e) => set('verify_ssl')(e.target.checked)} /> Verify
      the TLS certificate
    </label>
  );
}
