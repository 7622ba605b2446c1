// The Mastodon adapter: Herald's app on each instance the user names, OAuth with PKCE, identity and
// limits from the instance, publishing with Idempotency-Keys, reconcile, edit, unpublish, first comment.
// Every call goes to the account's instance through deps.serverHttp (instances are user input).
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountMeta, type PlatformAdapter } from '../types.ts';
import { instanceOf, isFailure } from './client.ts';
import { mastodonComment } from './comment.ts';
import { mastodonEdit } from './edit.ts';
import { MASTODON_INFO } from './info.ts';
import { createInstanceReader, instanceMeta } from './instance.ts';
import { authorizeUrl, exchangeCode, registerApp, revokeToken, verifyCredentials } from './oauth.ts';
import { publishMastodon, type PublishDeps } from './publish.ts';
import { reconcileMastodon } from './reconcile.ts';
import { unpublishMastodon } from './unpublish.ts';

export function createMastodonAdapter(deps: AdapterDeps): PlatformAdapter {
  const p: PublishDeps = { deps, instances: createInstanceReader(deps) };

  return {
    info: MASTODON_INFO,

    registerApp: (input) => registerApp(deps, input),

    authorizeUrl: (input) => authorizeUrl(input),

    async connect(input) {
      const exchanged = await exchangeCode(deps, input);
      if (isFailure(exchanged)) return exchanged;
      const instance = input.server!.url;
      const who = await verifyCredentials(deps, instance, exchanged.grant.accessToken);
      if (isFailure(who)) return who;
      // The domain is part of the accountId: without it the account cannot be named, so connecting waits.
      const facts = await p.instances(instance, { fresh: true });
      if (isFailure(facts)) return facts;
      const { domain } = facts.facts;
      const meta: AccountMeta = { instance, mastodonId: who.me.id, ...instanceMeta(facts.facts) };
      return {
        ok: true,
        accounts: [
          {
            accountId: `${who.me.id}@${domain}`,
            username: `@${who.me.username}@${domain}`,
            ...(who.me.displayName ? { displayName: who.me.displayName } : {}),
            ...(who.me.avatarUrl ? { avatarUrl: who.me.avatarUrl } : {}),
            grant: exchanged.grant,
            meta,
          },
        ],
      };
    },

    // No refresh grant exists and tokens do not expire: "refreshing" checks that the token still works and
    // keeps it. A token the instance refuses was revoked (by the user or an admin): reconnect.
    async refresh(account) {
      const instance = instanceOf(account);
      if (isFailure(instance)) return instance;
      const who = await verifyCredentials(deps, instance, account.accessToken);
      if (isFailure(who)) {
        if (who.category !== 'auth_expired') return who;
        return failure('auth_expired', `Mastodon tokens cannot be renewed, and this one was revoked (${who.message}); connect the account again`, {
          ...(who.httpStatus ? { httpStatus: who.httpStatus } : {}),
        });
      }
      return { ok: true, grant: { accessToken: account.accessToken, expiresAt: null, scopes: account.scopes } };
    },

    revoke: (account) => revokeToken(deps, account),

    async health(account) {
      const instance = instanceOf(account);
      if (isFailure(instance)) return instance;
      const who = await verifyCredentials(deps, instance, account.accessToken);
      if (isFailure(who)) return who;
      // Fresh limits for create-time rules; an instance that cannot describe itself just now keeps the stored ones.
      const facts = await p.instances(instance, { fresh: true });
      return { ok: true, permissions: account.scopes, expiresAt: null, ...(facts.ok ? { meta: instanceMeta(facts.facts) } : {}) };
    },

    publish: (request) => publishMastodon(p, request),

    reconcile: (request) => reconcileMastodon(p, request),

    edit: mastodonEdit(p),

    unpublish: (request) => unpublishMastodon(p, request),

    comment: mastodonComment(p),
  };
}
