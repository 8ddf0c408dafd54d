// The signed-in session (docs/console.md "Sign-in and access"): who is signed in (the admin or a tenant) and the
// CSRF token every state-changing call carries. The session itself is an HttpOnly cookie the script never reads.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { ConsoleApiError, session as sessionApi, setCsrfToken, type ConsoleSession } from '../api/client';

interface SessionContextValue {
  session: ConsoleSession | null;
  checking: boolean;
  signIn: (token: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<ConsoleSession | null>(null);
  const [checking, setChecking] = useState(true);
  const adopt = useCallback((s: ConsoleSession | null) => {
    setCsrfToken(s?.csrf_token ?? null);
    setSession(s);
  }, []);
  useEffect(() => {
    sessionApi
      .current()
      .then(adopt, (err: unknown) => {
        if (!(err instanceof ConsoleApiError && err.status === 401)) console.error(err);
        adopt(null);
      })
      .finally(() => setChecking(false));
  }, [adopt]);
  const signIn = useCallback(async (token: string) => adopt(await sessionApi.signIn(token)), [adopt]);
  const signOut = useCallback(async () => {
    try {
      await sessionApi.signOut();
    } finally {
      adopt(null);
    }
  }, [adopt]);
  return <SessionContext.Provider value={{ session, checking, signIn, signOut }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}
