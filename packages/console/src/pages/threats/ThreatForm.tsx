// The threat form, for create and edit (lib/threats.ts maps it to the API body). Field errors from the API's
// envelope (`param`) mark the field they name.
import { useState, type FormEvent } from 'react';
import { Field, FormErrorText, type FormError } from '../../components/form';
import {
  emptyDraft,
  THREAT_ASSET_TYPES,
  THREAT_CATEGORIES,
  THREAT_SEVERITIES,
  type ThreatDraft,
} from '../../lib/threats';

export function ThreatForm(props: {
  title: string;
  initial?: ThreatDraft;
  submitLabel: string;
  busy: boolean;
  error: FormError | null;
  onSubmit: (draft: ThreatDraft) => void;
}) {
  const [d, setD] = useState<ThreatDraft>(props.initial ?? emptyDraft());
  const set =
    <K extends keyof ThreatDraft>(k: K) =>
    (v: ThreatDraft[K]) =>
      setD((old) => ({ ...old, [k]: v }));
  const err = props.error;
  const text = (k: Exclude<keyof ThreatDraft, 'affected_asset_types'>) => ({
    value: d[k],
    onChange: (e: { target: { value: string } }) => set(k)(e.target.value as never),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(d);
  };
  const headingId = `${props.submitLabel.replace(/\W+/g, '-').toLowerCase()}-h`;
  return (
    <form className="card form" onSubmit={submit} aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      <div className="form-row">
        <Field label="Title" name="title" error={err}>
          <input required maxLength={200} {...text('title')} />
        </Field>
        <Field label="Category" name="category" error={err}>
          <select {...text('category')}>
            {THREAT_CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field label="Severity" name="severity" error={err}>
          <select {...text('severity')}>
            {THREAT_SEVERITIES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </Field>
        <Field label="Confidence (0–1)" name="confidence" error={err}>
          <input type="number" min={0} max={1} step={0.01} {...text('confidence')} />
        </Field>
        <Field label="Risk penalty (0–100)" name="risk_penalty" error={err}>
          <input type="number" min={0} max={100} step={1} {...text('risk_penalty')} />
        </Field>
        <Field label="CVE" name="cve_id" error={err} hint="e.g. CVE-2024-12345">
          <input {...text('cve_id')} />
        </Field>
      </div>
      <fieldset>
        <legend>Affected asset types (none = every type)</legend>
        <div className="form-row">
          {THREAT_ASSET_TYPES.map((t) => (
            <label key={t} className="check">
              <input
                type="checkbox"
                checked={d.affected_asset_types.includes(t)}
                onChange={(e) =>
                  set('affected_asset_types')(
                    e.target.checked ? [...d.affected_asset_types, t] : d.affected_asset_types.filter((x) => x !== t),
                  )
                }
              />{' '}
              {t}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="form-row">
        <Field label="Fingerprints" name="fingerprints" error={err} hint="one per line">
          <textarea {...text('fingerprints')} />
        </Field>
        <Field label="ATLAS techniques" name="attack_techniques" error={err} hint="e.g. AML.T0010, AML.T0018.002">
          <input {...text('attack_techniques')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Description" name="description" error={err}>
          <textarea maxLength={10000} {...text('description')} />
        </Field>
        <Field label="Remediation" name="remediation" error={err}>
          <textarea maxLength={10000} {...text('remediation')} />
        </Field>
        <Field label="Source" name="source" error={err}>
          <input maxLength={2000} {...text('source')} />
        </Field>
      </div>
      <FormErrorText error={err} />
      <button type="submit" className="primary" disabled={props.busy || d.title.trim() === ''}>
        {props.busy ? 'Saving…' : props.submitLabel}
      </button>
    </form>
  );
}
