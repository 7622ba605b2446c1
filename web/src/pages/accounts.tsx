// Accounts: every connected account with its health, Disconnect; Connect for each platform: the OAuth
// flow comes back to /app/accounts/callback/<platform>, which finishes it with POST /v1/connect; Bluesky
// style platforms take an app password, Mastodon style ones the instance first.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { ErrorText, Notice, PageTitle, StatusBadge, accountLabel, formatDateTime, useLoad } from '../ui.tsx';
import type { Meta } from '../api.ts';

const callbackUrl = (platform: string) => `${location.origin}/app/accounts/callback/${platform}`;

export function AccountsPage({ meta }: { meta: Meta }) {
  const accounts = useLoad(() => api<{ accounts: any[] }>('GET', '/v1/accounts'));
  const health = useLoad(() => api<{ accounts: any[] }>('GET', '/v1/accounts/health'));
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const healthOf = (a: any) => health.data?.accounts.find((h) => h.platform === a.platform && h.accountId === a.accountId);

  const startOAuth = async (platform: string, query = '') => {
    setError(null);
    try {
      const { authUrl } = await api('GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(callbackUrl(platform))}${query}`);
      location.assign(authUrl);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Accounts</PageTitle>
      <ErrorText error={accounts.error} />
      {message && <Notice>{message}</Notice>}
      {accounts.data && accounts.data.accounts.length === 0 && <p>No accounts connected yet.</p>}
      {accounts.data && accounts.data.accounts.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Connected</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.data.accounts.map((a) => {
              const h = healthOf(a);
              const id = `acct-${a.platform}-${a.accountId}`.replace(/[^A-Za-z0-9_-]/g, '_');
              return (
                <tr key={`${a.platform}:${a.accountId}`} data-account={`${a.platform}:${a.accountId}`}>
                  <td id={id}>{accountLabel(a)}</td>
                  <td>
                    <StatusBadge status={a.status} />
                  </td>
                  <td>
                    {h ? (
                      <>
                        <StatusBadge status={h.health} />
                        {h.missingPermissions?.length > 0 && <div class="muted">Missing: {h.missingPermissions.join(', ')}</div>}
                        {h.recommendations?.map((r: any) => (
                          <div key={r.code} class="muted">
                            {r.message}
                          </div>
                        ))}
                      </>
                    ) : health.loading ? (
                      <span class="muted">checking…</span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>{formatDateTime(a.connectedAt)}</td>
                  <td>
                    <button
                      type="button"
                      aria-describedby={id}
                      onClick={async () => {
                        if (!confirm(`Disconnect ${accountLabel(a)}? Its token is revoked at the platform.`)) return;
                        try {
                          await api('DELETE', `/v1/accounts/${a.platform}/${encodeURIComponent(a.accountId)}`);
                          setMessage(`Disconnected ${accountLabel(a)}.`);
                          await Promise.all([accounts.reload(), health.reload()]);
                        } catch (err) {
                          setError(err);
                        }
                      }}
                    >
                      Disconnect
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <h2>Connect an account</h2>
      <ErrorText error={error} />
      <ul class="connect-list">
        {meta.platforms
          .filter((p) => p.connect === 'oauth')
          .map((p) => (
            <li key={p.platform} data-platform={p.platform}>
              <span id={`connect-${p.platform}`}>{p.displayName}</span>{' '}
              <button type="button" aria-describedby={`connect-${p.platform}`} disabled={!p.available} onClick={() => startOAuth(p.platform)}>
                Connect
              </button>
              {!p.available && <span class="muted"> not configured on this server</span>}
            </li>
          ))}
      </ul>
      {meta.platforms
        .filter((p) => p.connect === 'server_oauth')
        .map((p) => (
          <form
            key={p.platform}
            class="connect-form"
            aria-label={`Connect ${p.displayName}`}
            onSubmit={(e) => {
              e.preventDefault();
              const instance = (new FormData(e.currentTarget).get('instance') as string).trim();
              void startOAuth(p.platform, `&instance=${encodeURIComponent(instance)}`);
            }}
          >
            <h3>{p.displayName}</h3>
            <label>
              Instance
              <input name="instance" type="url" required placeholder="https://mastodon.social" />
            </label>
            <button type="submit" disabled={!p.available}>
              Connect
            </button>
          </form>
        ))}
      {meta.platforms
        .filter((p) => p.connect === 'password')
        .map((p) => (
          <form
            key={p.platform}
            class="connect-form"
            aria-label={`Connect ${p.displayName}`}
            onSubmit={async (e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const data = new FormData(form);
              const body: Record<string, string> = { identifier: String(data.get('identifier')).trim(), appPassword: String(data.get('appPassword')) };
              const service = String(data.get('service') ?? '').trim();
              if (service) body.service = service;
              setError(null);
              try {
                const done = await api('POST', `/v1/connect/${p.platform}`, body);
                form.reset();
                setMessage(`Connected ${done.username} (${done.platform}).`);
                await Promise.all([accounts.reload(), health.reload()]);
              } catch (err) {
                setError(err);
              }
            }}
          >
            <h3>{p.displayName}</h3>
            <label>
              Handle or email
              <input name="identifier" type="text" required autoComplete="username" />
            </label>
            <label>
              App password
              <input name="appPassword" type="password" required autoComplete="current-password" />
            </label>
            <label>
              Server (optional)
              <input name="service" type="url" placeholder="https://bsky.social" />
            </label>
            <button type="submit" disabled={!p.available}>
              Connect
            </button>
          </form>
        ))}
    </section>
  );
}

/** Where the platform sends the user back: finishes the connection, then back to Accounts. */
export function ConnectCallbackPage({ platform, search }: { platform: string; search: URLSearchParams }) {
  const { data, error } = useLoad(async () => {
    const denied = search.get('error');
    if (denied) throw new Error(`${platform} did not grant access: ${search.get('error_description') ?? denied}`);
    const code = search.get('code');
    if (!code) throw new Error('the platform sent no code back');
    const body: Record<string, string> = { code, redirect_url: callbackUrl(platform) };
    const state = search.get('state');
    if (state) body.state = state;
    // The code is single use: drop it from the address bar and history before anything else.
    history.replaceState(null, '', `/app/accounts/callback/${platform}`);
    return api('POST', `/v1/connect/${platform}`, body);
  }, [platform]);
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Connecting</PageTitle>
      {!data && !error && <p role="status">Finishing the connection…</p>}
      <ErrorText error={error} />
      {data && (
        <Notice>
          {`Connected ${data.accounts.map((a: any) => accountLabel(a)).join(', ')}.`}
        </Notice>
      )}
      <p>
        <a href="/app/accounts" onClick={(e) => (e.preventDefault(), navigate('/app/accounts'))}>
          Back to accounts
        </a>
      </p>
    </section>
  );
}
