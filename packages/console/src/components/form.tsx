// Form pieces shared by the pages: a labelled field with its error (aria-invalid / aria-describedby), and the
// submit-state helper that turns an API error envelope into the message and the field it names (`param`).
import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { ConsoleApiError } from '../api/client';

export interface FormError {
  message: string;
  param?: string;
}

export function toFormError(err: unknown): FormError {
  if (err instanceof ConsoleApiError) {
    const code = err.code ? ` (${err.code})` : '';
    return { message: `${err.message}${code}`, param: err.body?.error.param };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

/** Runs a submit: busy while it runs, the error (if any) kept for display. */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const run = async (fn: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (err) {
      setError(toFormError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(null) };
}

/** label + control + hint; the control gets the id, and aria-invalid when `error.param` names this field. */
export function Field(props: {
  label: string;
  name: string;
  error?: FormError | null;
  hint?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const invalid = props.error?.param !== undefined && props.error.param === props.name;
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, {
        id,
        name: props.name,
        'aria-invalid': invalid || undefined,
        'aria-describedby': props.hint || invalid ? hintId : undefined,
      })}
      {props.hint || invalid ? (
        <span id={hintId} className={invalid ? 'field-error' : 'muted'}>
          {invalid ? props.error?.message : props.hint}
        </span>
      ) : null}
    </div>
  );
}

export function FormErrorText({ error }: { error: FormError | null }) {
  if (!error) return null;
  return (
    <p className="state error" role="alert">
      {error.message}
    </p>
  );
}
