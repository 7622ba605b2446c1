// The dashboard's shell: sign-in, navigation, and the page for the address.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { currentSession, describeError, signIn, signOut, whenSignedOut, api, type Meta, type SessionInfo } from './api.ts';
import { interceptLinks, match, navigate, useLocation } from './router.ts';
import { AccountsPage, ConnectCallbackPage } from './pages/accounts.tsx';
import { CalendarPage } from './pages/calendar.tsx';
import { ComposePage } from './pages/compose.tsx';
import { MediaPage } from './pages/media.tsx';
import { PostPage } from './pages/post.tsx';
import { PostsPage } from './pages/posts.tsx';
import { QueuePage } from './pages/queue.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { PageTitle } from './ui.tsx';

const NAV: [string, string][] = [
  ['Calendar', '/app/calendar'],
  ['Compose', '/app/compose'],
  ['Posts', '/app/posts'],
  ['Media', '/app/media'],
  ['Accounts', '/app/accounts'],
  ['Webhooks', '/app/webhooks'],
  ['Queue', '/app/queue'],
];

function SignIn({ onSignedIn, ended }: { onSignedIn(s: SessionInfo): void; ended: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · Herald';
  }, []);
  return (
    <main id="main" class="signin">
      <h1>Herald</h1>
      {ended && <p role="status">You are signed out.</p>}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const input = form.elements.namedItem('key') as HTMLInputElement;
          setBusy(true);
          setError(null);
          try {
            const s = await signIn(input.value);
            input.value = ''; // the key is not kept anywhere once it has been exchanged
            onSignedIn(s);
          } catch (err) {
            setError(describeError(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label class="field">
          API key
          <input name="key" type="password" required autoComplete="off" spellcheck={false} placeholder="hk_…" />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p class="muted">The key is exchanged for a session cookie that page scripts cannot read; it is not stored in the browser.</p>
    </main>
  );
}

function Shell({ session, onSignOut }: { session: SessionInfo; onSignOut(): void }) {
  const { url, visit } = useLocation();
  const route = match(url.pathname);
  const [meta, setMeta] = useState<Meta>({ platforms: [], events: [] });
  const first = useRef(true);
  useEffect(() => {
    api<Meta>('GET', '/app/api/meta').then(setMeta, () => {});
  }, []);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('page-title')?.focus();
  }, [visit]);

  const active = route.page === 'post' ? '/app/posts' : route.page === 'callback' ? '/app/accounts' : `/app/${route.page}`;
  let page;
  switch (route.page) {
    case 'calendar':
      page = <CalendarPage />;
      break;
    case 'compose':
      page = <ComposePage />;
      break;
    case 'posts':
      page = <PostsPage platforms={meta.platforms.map((p) => p.platform)} />;
      break;
    case 'post':
      page = <PostPage id={route.params.id!} />;
      break;
    case 'media':
      page = <MediaPage />;
      break;
    case 'accounts':
      page = <AccountsPage meta={meta} />;
      break;
    case 'callback':
      page = <ConnectCallbackPage platform={route.params.platform!} search={url.searchParams} />;
      break;
    case 'webhooks':
      page = <WebhooksPage events={meta.events} />;
      break;
    case 'queue':
      page = <QueuePage />;
      break;
    default:
      page = (
        <section>
          <PageTitle>Not found</PageTitle>
          <p>
            There is no page here. <a href="/app/calendar">Go to the calendar</a>.
          </p>
        </section>
      );
  }

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Herald</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([label, href]) => (
              <li key={href}>
                <a href={href} aria-current={active === href || (href === '/app/calendar' && url.pathname.replace(/\/$/, '') === '/app') ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.key.name} <code>{session.key.prefix}…</code>
        </span>
        <button
          type="button"
          onClick={async () => {
            try {
              await signOut();
            } finally {
              onSignOut();
            }
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" key={visit}>
        {page}
      </main>
    </>
  );
}

function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    whenSignedOut(() => {
      setSession(null);
      setEnded(true);
    });
    currentSession().then(setSession, () => setSession(null));
  }, []);
  if (session === undefined) return <p class="muted">Loading…</p>;
  if (session === null) return <SignIn ended={ended} onSignedIn={(s) => { setEnded(false); setSession(s); }} />;
  return (
    <Shell
      session={session}
      onSignOut={() => {
        setSession(null);
        setEnded(true);
        navigate('/app', true);
      }}
    />
  );
}

const root = document.getElementById('root')!;
interceptLinks(root);
render(<App />, root);
