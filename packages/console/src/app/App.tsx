// The app shell: skip link, navigation, sign-in / sign-out, one error boundary per page, and the route table.
// Pages live one folder each under src/pages/ (docs/console.md "Pages").
import type { ReactNode } from 'react';
import { ErrorBoundary, Loading } from '../components/states';
import { SignInPage } from '../pages/sign-in/SignInPage';
import { OverviewPage } from '../pages/overview/OverviewPage';
import { AssetsPage } from '../pages/assets/AssetsPage';
import { AssetPage } from '../pages/asset/AssetPage';
import { PoliciesPage } from '../pages/policies/PoliciesPage';
import { PolicyPage } from '../pages/policy/PolicyPage';
import { FirewallsPage } from '../pages/firewalls/FirewallsPage';
import { FirewallPage } from '../pages/firewall/FirewallPage';
import { ThreatsPage } from '../pages/threats/ThreatsPage';
import { ThreatPage } from '../pages/threat/ThreatPage';
import { WebhooksPage } from '../pages/webhooks/WebhooksPage';
import { WebhookPage } from '../pages/webhook/WebhookPage';
import { TenantsPage } from '../pages/tenants/TenantsPage';
import { TenantPage } from '../pages/tenant/TenantPage';
import { KeysPage } from '../pages/keys/KeysPage';
import '../styles/pages.css';
import { Link, matchPath, RouterProvider, useRouter } from './router';
import { SessionProvider, useSession } from './session';

export interface RouteEntry {
  pattern: string;
  /** nav label; entries without one are not in the navigation */
  nav?: string;
  /** who may open it */
  for: Array<'admin' | 'tenant'>;
  render: (params: Record<string, string>) => ReactNode;
}

/** Every page; a second helper adds Threats, Webhooks, Firewalls, Policies, Admin and Keys here. */
export const ROUTES: RouteEntry[] = [
  { pattern: '/', nav: 'Overview', for: ['tenant'], render: () => <OverviewPage /> },
  { pattern: '/assets', nav: 'Assets', for: ['tenant'], render: () => <AssetsPage /> },
  { pattern: '/assets/:fingerprint', for: ['tenant'], render: (p) => <AssetPage fingerprint={p.fingerprint!} /> },
  { pattern: '/threats', nav: 'Threats', for: ['tenant'], render: () => <ThreatsPage /> },
  { pattern: '/threats/:id', for: ['tenant'], render: (p) => <ThreatPage id={p.id!} /> },
  { pattern: '/webhooks', nav: 'Webhooks', for: ['tenant'], render: () => <WebhooksPage /> },
  { pattern: '/webhooks/:id', for: ['tenant'], render: (p) => <WebhookPage id={p.id!} /> },
  { pattern: '/firewalls', nav: 'Firewalls', for: ['tenant'], render: () => <FirewallsPage /> },
  { pattern: '/firewalls/:id', for: ['tenant'], render: (p) => <FirewallPage id={p.id!} /> },
  { pattern: '/policies', nav: 'Policies', for: ['tenant'], render: () => <PoliciesPage /> },
  { pattern: '/policies/:id', for: ['tenant'], render: (p) => <PolicyPage id={p.id!} /> },
  { pattern: '/keys', nav: 'API keys', for: ['tenant'], render: () => <KeysPage /> },
  { pattern: '/', for: ['admin'], render: () => <TenantsPage /> },
  { pattern: '/tenants', nav: 'Tenants', for: ['admin'], render: () => <TenantsPage /> },
  { pattern: '/tenants/:id', for: ['admin'], render: (p) => <TenantPage id={p.id!} /> },
];

export function App() {
  return (
    <RouterProvider>
      <SessionProvider>
        <Shell />
      </SessionProvider>
    </RouterProvider>
  );
}

function Shell() {
  const { session, checking, signOut } = useSession();
  const { location } = useRouter();
  if (checking) return <Loading label="Checking your session…" />;
  if (!session) return <SignInPage />;
  const kind = session.kind;
  const visible = ROUTES.filter((r) => r.for.includes(kind));
  const match = visible.map((r) => ({ r, params: matchPath(r.pattern, location.path) })).find((m) => m.params);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Risk console</span>
        <nav aria-label="Main">
          <ul>
            {visible
              .filter((r) => r.nav)
              .map((r) => (
                <li key={r.pattern}>
                  <Link to={r.pattern} aria-current={match?.r === r ? 'page' : undefined}>
                    {r.nav}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
        <span className="who">{kind === 'admin' ? 'Platform admin' : `Tenant ${session.tenant?.name ?? ''}`}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorBoundary resetKey={location.path}>
          {match ? match.r.render(match.params!) : <NotFound admin={kind === 'admin'} />}
        </ErrorBoundary>
      </main>
    </>
  );
}

function NotFound({ admin }: { admin: boolean }) {
  return (
    <section>
      <h1>{admin ? 'Platform admin' : 'Not found'}</h1>
      <p>{admin ? 'Tenant management pages are being added.' : 'No page at this address.'}</p>
    </section>
  );
}
