// A small history router (no dependency): every page has a deep link under /console/, which admin-api answers
// with index.html (docs/console.md "Build and serving"). Links are real <a href>s, so they open in a new tab too.
export { matchPath } from '../lib/match-path';
import { createContext, useContext, useEffect, useState, type MouseEvent, type ReactNode } from 'react';

export const BASE = '/console';

interface Location {
  path: string;
  search: URLSearchParams;
}

const RouterContext = createContext<{ location: Location; navigate: (to: string) => void } | null>(null);

function read(): Location {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return { path: path === '' ? '/' : path, search: new URLSearchParams(window.location.search) };
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const onPop = () => setLocation(read());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = (to: string) => {
    window.history.pushState(null, '', `${BASE}${to}`);
    setLocation(read());
    window.scrollTo(0, 0);
  };
  return <RouterContext.Provider value={{ location, navigate }}>{children}</RouterContext.Provider>;
}

export function useRouter() {
  const ctx = useContext(RouterContext);
  if (!ctx) throw new Error('useRouter outside RouterProvider');
  return ctx;
}

/** An in-app link: a plain anchor that navigates without a reload on a plain left click. */
export function Link({
  to,
  children,
  ...rest
}: {
  to: string;
  children: ReactNode;
  className?: string;
  'aria-current'?: 'page';
}) {
  const { navigate } = useRouter();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a href={`${BASE}${to}`} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
