// Revoking a credential from a list row (docs/console-pages.md "Secrets"): ask first, run the DELETE as a submit (its
// error shown by the page's FormErrorText), reload the list; the row's button names the item for screen readers.
import { useSubmit } from './form';
import { RelativeTime } from './time';

export function useRevoke<T>(opts: {
  question: (item: T) => string;
  revoke: (item: T) => Promise<unknown>;
  after: () => void;
}) {
  const submit = useSubmit();
  const revoke = (item: T) => {
    if (!window.confirm(opts.question(item))) return;
    void submit.run(async () => {
      await opts.revoke(item);
      opts.after();
    });
  };
  return { submit, revoke };
}

export function RevokeButton(props: { name: string; onClick: () => void; disabled: boolean }) {
  return (
    <button type="button" className="danger" onClick={props.onClick} disabled={props.disabled}>
      Revoke<span className="visually-hidden"> {props.name}</span>
    </button>
  );
}

/** A token row's last cells: when it expires, when it was last used, and its Revoke button while it is active. */
export function TokenLifeCells(props: {
  token: { status: string; expires_at: number | string; last_used_at: number | string | null };
  /** what the button names for screen readers */
  name: string;
  onRevoke: () => void;
  busy: boolean;
}) {
  const { token } = props;
  return (
    <>
      <td>
        <RelativeTime value={token.expires_at} />
      </td>
      <td>
        <RelativeTime value={token.last_used_at} />
      </td>
      <td>
        {token.status === 'active' ? (
          <RevokeButton name={props.name} onClick={props.onRevoke} disabled={props.busy} />
        ) : null}
      </td>
    </>
  );
}
