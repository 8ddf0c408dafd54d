// Vendor log forwarding (POST /firewalls/v1/{id}/configure-vendor-logging): pushes a syslog server profile to
// the device and shows what the vendor answered (docs/firewalls.md).
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { ConfigureLoggingBody, Firewall, FirewallLogging } from '../../api/types';
import { Field, FormErrorText, useSubmit } from '../../components/form';

const MODES: Array<ConfigureLoggingBody['mode']> = ['udp', 'tcp', 'tls'];
const FACILITIES = ['LOG_USER', ...[0, 1, 2, 3, 4, 5, 6, 7].map((n) => `LOG_LOCAL${n}`)] as Array<
  ConfigureLoggingBody['facility']
>;

export function LoggingForm({ firewall, onSaved }: { firewall: Firewall; onSaved: () => void }) {
  const [form, setForm] = useState({
    syslog_server: '',
    syslog_port: '514',
    mode: MODES[0]!,
    facility: FACILITIES[0]!,
  });
  const [result, setResult] = useState<FirewallLogging | null>(null);
  const submit = useSubmit();
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }) as typeof form);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body: ConfigureLoggingBody = { ...form, syslog_port: Number(form.syslog_port) };
      setResult(
        await unwrap(
          adminApi.POST('/firewalls/v1/{id}/configure-vendor-logging', { params: { path: { id: firewall.id } }, body }),
        ),
      );
      onSaved();
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="fw-log-h">
      <h2 id="fw-log-h">Vendor log forwarding</h2>
      <div className="form-row">
        <Field label="Syslog server" name="syslog_server" error={submit.error}>
          <input
            required
            maxLength={63}
            value={form.syslog_server}
            onChange={(e) => set('syslog_server')(e.target.value)}
          />
        </Field>
        <Field label="Port" name="syslog_port" error={submit.error}>
          <input
            type="number"
            min={1}
            max={65535}
            value={form.syslog_port}
            onChange={(e) => set('syslog_port')(e.target.value)}
          />
        </Field>
        <Field label="Transport" name="mode" error={submit.error}>
          <select value={form.mode} onChange={(e) => set('mode')(e.target.value)}>
            {MODES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </Field>
        <Field label="Facility" name="facility" error={submit.error}>
          <select value={form.facility} onChange={(e) => set('facility')(e.target.value)}>
            {FACILITIES.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </Field>
      </div>
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy}>
        {submit.busy ? 'Configuring…' : 'Configure log forwarding'}
      </button>
      <div aria-live="polite">
        {result ? (
          <div className={`card test-result ${result.ok ? 'ok' : 'fail'}`}>
            <p>
              <strong>{result.ok ? 'Configured on the firewall' : 'The firewall refused the configuration'}</strong>
              {result.error ? `: ${result.error.reason}: ${result.error.message}` : ''}
            </p>
            {result.vendor_config ? <pre className="json">{JSON.stringify(result.vendor_config, null, 2)}</pre> : null}
          </div>
        ) : null}
      </div>
    </form>
  );
}
