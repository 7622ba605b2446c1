// Webhook settings of a key (API.md section 7): where events go, which ones, and the signing secret
// (generated on the first save, sealed at rest, bound to its row). The URL is checked against the
// outbound address rules here, and again by the guarded client on every send.
import type { Writer } from '../db/writer.ts';
import { errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { SecretBox } from '../lib/crypto.ts';
import { fromJson } from '../lib/json.ts';
import { checkOutboundUrl, resolvesToPublic } from '../net/address.ts';
import type { DeliveriesDal } from './deliveries-dal.ts';
import type { EventName } from '../events/catalog.ts';
import type { SettingsDal, SettingsRow } from './settings-dal.ts';
import { generateSecret, secretProblem } from './signing.ts';

export interface SettingsOut {
  url: string;
  events: EventName[];
  secret: string;
  updatedAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
}

export interface SaveSettingsInput {
  url: string;
  events: EventName[];
  secret?: string;
}

/** Where a key's deliveries go right now. */
export type Destination = { kind: 'none' } | { kind: 'disabled'; reason: string; url: string; secret: string } | { kind: 'active'; url: string; secret: string };

export const REMOVED_REASON = 'the webhook settings were removed';

const secretContext = (apiKeyId: string) => `webhook_settings:${apiKeyId}:secret`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function createWebhookSettings(deps: {
  write: Writer['write'];
  clock: Clock;
  box: SecretBox;
  dal: SettingsDal;
  deliveries: Pick<DeliveriesDal, 'failPending'>;
  allowPrivateNetworks: boolean;
  /** Loopback receivers are allowed (the sandbox's default); private ranges still are not. */
  allowLoopback?: boolean;
}) {
  const { write, clock, box, dal } = deps;

  const open = (row: SettingsRow) => box.open(row.secret, secretContext(row.api_key_id));

  function present(row: SettingsRow): SettingsOut {
    return {
      url: row.url,
      events: fromJson<EventName[]>(row.events, []),
      secret: open(row),
      updatedAt: new Date(row.updated_at).toISOString(),
      disabledAt: iso(row.disabled_at),
      disabledReason: row.disabled_reason,
    };
  }

  const allowLoopback = deps.allowLoopback ?? false;
  // What an operator can do about a refused address (API.md section 9 lets private networks in for tests
  // and local development only).
  const addressHint = allowLoopback
    ? '; Herald allows loopback receivers here (the sandbox) but no other private address: set HERALD_ALLOW_PRIVATE_NETWORKS=true to allow them (local development only)'
    : '; Herald refuses those unless HERALD_ALLOW_PRIVATE_NETWORKS=true (local development only)';

  async function checkUrl(raw: string): Promise<string> {
    const check = checkOutboundUrl(raw, deps.allowPrivateNetworks, allowLoopback);
    if (!check.ok) throw errors.invalid('url', `url ${check.message}${check.message.includes('address') ? addressHint : ''}`);
    if (!deps.allowPrivateNetworks && !(await resolvesToPublic(check.url.hostname, allowLoopback))) {
      throw errors.invalid('url', `url host ${check.url.hostname} cannot be resolved or points at a private, loopback or reserved address${addressHint}`);
    }
    return raw;
  }

  async function existing(apiKeyId: string): Promise<SettingsRow> {
    const row = await dal.get(apiKeyId);
    if (!row) throw errors.notFound('this API key has no webhook settings; create them with POST /v1/webhooks/settings');
    return row;
  }

  return {
    async save(apiKeyId: string, input: SaveSettingsInput): Promise<SettingsOut> {
      const url = await checkUrl(input.url);
      if (input.secret !== undefined) {
        const problem = secretProblem(input.secret);
        if (problem) throw errors.invalid('secret', problem);
      }
      const secret = input.secret ?? generateSecret();
      const row = await dal.upsert(apiKeyId, {
        url,
        events: [...new Set(input.events)],
        secret: box.seal(secret, secretContext(apiKeyId)),
        replaceSecret: input.secret !== undefined,
        now: clock.now(),
      });
      return present(row);
    },

    async get(apiKeyId: string): Promise<SettingsOut> {
      return present(await existing(apiKeyId));
    },

    async rotate(apiKeyId: string): Promise<SettingsOut> {
      await existing(apiKeyId);
      const row = await dal.setSecret(apiKeyId, box.seal(generateSecret(), secretContext(apiKeyId)), clock.now());
      if (!row) throw errors.notFound('this API key has no webhook settings');
      return present(row);
    },

    /** Removes the settings; deliveries still waiting are failed, since there is nowhere to send them. */
    async remove(apiKeyId: string): Promise<{ deleted: true }> {
      await write(async (trx) => {
        if (!(await dal.delete(trx, apiKeyId))) throw errors.notFound('this API key has no webhook settings');
        await deps.deliveries.failPending(trx, apiKeyId, REMOVED_REASON, clock.now());
      });
      return { deleted: true };
    },

    async destination(apiKeyId: string): Promise<Destination> {
      const row = await dal.get(apiKeyId);
      if (!row) return { kind: 'none' };
      const target = { url: row.url, secret: open(row) };
      if (row.disabled_at !== null) return { kind: 'disabled', reason: row.disabled_reason ?? 'disabled', ...target };
      return { kind: 'active', ...target };
    },
  };
}

export type WebhookSettings = ReturnType<typeof createWebhookSettings>;
