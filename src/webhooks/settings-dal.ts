// Data access for a key's webhook settings (one row per API key). The secret arrives and leaves sealed.
import type { DbTx } from '../db/schema.ts';
import type { Kysely, Selectable } from 'kysely';
import type { Writer } from '../db/writer.ts';
import type { Database, WebhookSettingsTable } from '../db/schema.ts';

export type SettingsRow = Selectable<WebhookSettingsTable>;

export interface SettingsWrite {
  url: string;
  events: string[];
  /** Sealed. Used for a new row; replaces the stored one only when `replaceSecret`. */
  secret: string;
  replaceSecret: boolean;
  now: number;
}

export function createSettingsDal(deps: { db: Kysely<Database>; write: Writer['write'] }) {
  const { db, write } = deps;
  return {
    async get(apiKeyId: string, executor: DbTx = db): Promise<SettingsRow | undefined> {
      return executor.selectFrom('webhook_settings').selectAll().where('api_key_id', '=', apiKeyId).executeTakeFirst();
    },

    /** Creates or replaces the settings in one statement, so two first saves cannot both keep a secret. */
    async upsert(apiKeyId: string, w: SettingsWrite): Promise<SettingsRow> {
      return write((trx) => trx
        .insertInto('webhook_settings')
        .values({
          api_key_id: apiKeyId,
          url: w.url,
          events: JSON.stringify(w.events),
          secret: w.secret,
          disabled_at: null,
          disabled_reason: null,
          created_at: w.now,
          updated_at: w.now,
        })
        .onConflict((oc) =>
          oc.column('api_key_id').doUpdateSet((eb) => ({
            url: eb.ref('excluded.url'),
            events: eb.ref('excluded.events'),
            updated_at: eb.ref('excluded.updated_at'),
            // Saving again is how a caller re-enables settings that a 410 disabled.
            disabled_at: null,
            disabled_reason: null,
            ...(w.replaceSecret ? { secret: eb.ref('excluded.secret') } : {}),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow());
    },

    async setSecret(apiKeyId: string, sealed: string, now: number): Promise<SettingsRow | undefined> {
      return write((trx) =>
        trx.updateTable('webhook_settings').set({ secret: sealed, updated_at: now }).where('api_key_id', '=', apiKeyId).returningAll().executeTakeFirst(),
      );
    },

    async delete(trx: DbTx, apiKeyId: string): Promise<boolean> {
      const r = await trx.deleteFrom('webhook_settings').where('api_key_id', '=', apiKeyId).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    /** Disables the settings if they still point at `url` (they may have been changed meanwhile). */
    async disable(trx: DbTx, apiKeyId: string, url: string, reason: string, now: number): Promise<boolean> {
      const r = await trx
        .updateTable('webhook_settings')
        .set({ disabled_at: now, disabled_reason: reason })
        .where('api_key_id', '=', apiKeyId)
        .where('url', '=', url)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}

export type SettingsDal = ReturnType<typeof createSettingsDal>;
