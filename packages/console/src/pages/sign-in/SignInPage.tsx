// Sign-in (docs/console.md "Sign-in and access"): the admin token or a tenant token, exchanged once for an
// HttpOnly session cookie. The field is a password input and is cleared after the exchange.
import { useState, type FormEvent } from 'react';
import { useSession } from '../../app/session';

export function SignInPage() {
  const { signIn } = useSession();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(token.trim());
      setToken('');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <h1>Risk console</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby="sign-in-help">
        <label htmlFor="token">Admin token or tenant token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <p id="sign-in-help" className="muted">
          Platform admins use the admin token (printed by <code>pnpm start</code>); a tenant&apos;s security team uses a
          tenant token. The token is exchanged for a session of at most 8 hours and is not stored in the browser.
        </p>
        {error ? (
          <p role="alert" className="state error">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy || token.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
