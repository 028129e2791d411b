import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { api, holds, onSessionEnded, type Account, type BroadcastMessage } from './api.js';
import { useAccount } from './account.js';
import { useEventStream } from './live.js';
import { AlarmList } from './alarms/AlarmList.js';
import { Health } from './pages/Health.js';
import { Weather } from './pages/Weather.js';
import { ExtensionPage, useExtensions } from './extensions.js';
import { useTheme } from './theme.js';

// The administration pages load on first visit, so the alarm list's first screen carries none of their code.
const AdminIndex = lazy(() => import('./admin/ResourcePage.js').then((m) => ({ default: m.AdminIndex })));
const ResourcePage = lazy(() => import('./admin/ResourcePage.js').then((m) => ({ default: m.ResourcePage })));
const Access = lazy(() => import('./admin/Access.js'));
const Audit = lazy(() => import('./admin/Audit.js'));
const Import = lazy(() => import('./admin/Import.js'));
const Calendar = lazy(() => import('./admin/Calendar.js'));
const configurationRights = ['idle-rules:read', 'actions:read', 'eventfilter:read', 'heartbeats:read', 'alarm-filters:read', 'meta-alarms:read', 'dynamic-infos:read', 'webhooks:read', 'broadcast:read'];

/**
 * A page the navigation offers only to a user holding one of `rights`. Reached anyway (a link followed, a URL typed),
 * it says so and still asks the server, whose refusal (403) the page shows: the server decides, not the console.
 */
function Guarded({ account, rights, children }: { account: Account | undefined; rights: string[]; children: ReactNode }) {
  if (!account) return <main id="main" className="page" aria-busy="true" />;
  const allowed = rights.some((r) => holds(account, r));
  return (
    <Suspense fallback={<main id="main" className="page" aria-busy="true" />}>
      {!allowed && (
        <p className="notice page" role="note">
          This page needs one of the rights {rights.join(', ')}, which you do not hold.
        </p>
      )}
      {children}
    </Suspense>
  );
}

function SessionEnded() {
  const next = window.location.pathname + window.location.search;
  return (
    <main className="session-ended" id="main">
      <h1>Your session has ended</h1>
      <p>You were signed out (the session expired, or you signed out in another tab). Nothing you were looking at was changed.</p>
      <p>
        <a className="button primary" href={`/login?next=${encodeURIComponent(next)}`}>
          Sign in again
        </a>
      </p>
    </main>
  );
}

function Banner() {
  const queryClient = useQueryClient();
  // The banner stream pushes the whole list of active messages at once and after each change.
  const live = useEventStream('/api/v2/broadcast-message/stream', {
    message: (list) => {
      if (Array.isArray(list)) queryClient.setQueryData(['broadcast-active'], list);
    },
    reload: () => void queryClient.invalidateQueries({ queryKey: ['broadcast-active'] }),
  });
  const { data } = useQuery({
    queryKey: ['broadcast-active'],
    queryFn: () => api<BroadcastMessage[]>('/api/v2/broadcast-message/active'),
    refetchInterval: live === 'live' ? false : 30_000,
  });
  if (!data || data.length === 0) return null;
  return (
    <div className="banners" role="region" aria-label="Broadcast messages">
      {data.map((m) => (
        <p key={m._id} className="banner" style={{ borderLeftColor: m.color }}>
          {m.message}
        </p>
      ))}
    </div>
  );
}

function NavLink({ href, children }: { href: string; children: string }) {
  const [location] = useLocation();
  const current = href === '/' ? location === '/' || location === '/alarms' : location.startsWith(href);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

export function App() {
  const [ended, setEnded] = useState(false);
  useEffect(() => onSessionEnded(() => setEnded(true)), []);
  const [theme, toggleTheme] = useTheme();
  const me = useAccount();
  const extensions = useExtensions();

  if (ended) return <SessionEnded />;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Vigie</span>
        <nav aria-label="Sections">
          <NavLink href="/">Alarms</NavLink>
          <NavLink href="/weather">Weather</NavLink>
          <NavLink href="/health">Health</NavLink>
          {holds(me.data, 'pbehaviors:read') && <NavLink href="/calendar">Calendar</NavLink>}
          {configurationRights.some((r) => holds(me.data, r)) && <NavLink href="/admin">Configuration</NavLink>}
          {(holds(me.data, 'users:admin') || holds(me.data, 'roles:admin') || holds(me.data, 'account:own')) && <NavLink href="/access">Access</NavLink>}
          {holds(me.data, 'audit:read') && <NavLink href="/audit">Audit</NavLink>}
          {holds(me.data, 'import:read') && <NavLink href="/import">Import</NavLink>}
          {extensions.pages.map((p) => (
            <NavLink key={p.href} href={p.href}>
              {p.title}
            </NavLink>
          ))}
        </nav>
        <div className="account">
          <button type="button" className="link" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? 'Light' : 'Dark'}
          </button>
          {me.data && (
            <span className="who" title={`Signed in with ${me.data.via}`}>
              {me.data.name}
            </span>
          )}
          <a href="/logout">Sign out</a>
        </div>
      </header>
      <Banner />
      <Switch>
        <Route path="/weather/:watcher?">{(params) => <Weather watcher={params.watcher} />}</Route>
        <Route path="/health">
          <Health />
        </Route>
        <Route path="/access">
          <Guarded account={me.data} rights={['users:admin', 'roles:admin', 'account:own']}>
            <Access account={me.data} />
          </Guarded>
        </Route>
        <Route path="/admin">
          <Guarded account={me.data} rights={configurationRights}>
            <AdminIndex account={me.data} />
          </Guarded>
        </Route>
        <Route path="/admin/:resource">
          {(params) => (
            <Guarded account={me.data} rights={configurationRights}>
              <ResourcePage resource={params.resource} account={me.data} />
            </Guarded>
          )}
        </Route>
        <Route path="/audit">
          <Guarded account={me.data} rights={['audit:read']}>
            <Audit />
          </Guarded>
        </Route>
        <Route path="/import">
          <Guarded account={me.data} rights={['import:read']}>
            <Import writable={holds(me.data, 'import:write')} />
          </Guarded>
        </Route>
        <Route path="/calendar">
          <Guarded account={me.data} rights={['pbehaviors:read']}>
            <Calendar writable={holds(me.data, 'pbehaviors:write')} />
          </Guarded>
        </Route>
        <Route path="/x/:page">{(params) => <ExtensionPage path={params.page} extensions={extensions} />}</Route>
        <Route>
          <AlarmList extensions={extensions} />
        </Route>
      </Switch>
    </>
  );
}
