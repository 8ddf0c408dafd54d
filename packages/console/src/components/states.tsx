// Loading, empty and error states shared by every page (docs/console.md "Pages"). Values render as text only.
import { Component, type ReactNode } from 'react';
import { ConsoleApiError } from '../api/client';
import type { AsyncState } from '../app/use-async';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="state loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

export function ErrorState({ error, retry }: { error: Error; retry?: () => void }) {
  const code = error instanceof ConsoleApiError ? error.code : undefined;
  const requestId = error instanceof ConsoleApiError ? error.body?.error.request_id : undefined;
  return (
    <div className="state error" role="alert">
      <p>
        {error.message}
        {code ? ` (${code})` : ''}
      </p>
      {requestId ? <p className="muted">request id {requestId}</p> : null}
      {retry ? (
        <button type="button" onClick={retry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

/** Renders loading / error, or the children with the data. */
export function Async<T>({
  state,
  children,
}: {
  state: AsyncState<T> & { reload?: () => void };
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <ErrorState error={state.error} retry={state.reload} />;
  return <>{children(state.data)}</>;
}

/** Catches a page's render errors so the shell (and sign-out) keeps working. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }
  override render() {
    if (this.state.error)
      return <ErrorState error={new Error(`This page failed to render: ${this.state.error.message}`)} />;
    return this.props.children;
  }
}
