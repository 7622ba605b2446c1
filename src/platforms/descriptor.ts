// Everything Herald knows about one platform, in one value. Each `platforms/<name>/index.ts` exports one
// descriptor; the registry is the list of them, and configuration, the engine, the posts rules, health,
// the OpenAPI enums and the sandbox all read from it. Adding a platform is a folder and a registry line.
import type { TSchema } from 'typebox';
import type { Emulator, EmulatorOptions } from '../sandbox/kit/emulator.ts';
import type { AdapterDeps } from './deps.ts';
import type { MediaRules } from '../media/rules.ts';
import type { AccountMeta, PlatformAdapter, PlatformInfo, RuleViolation, TargetContent } from './types.ts';

/** A URL setting: its name, its real default, and whether it is a base (paths appended) or a full URL. */
export interface UrlSetting {
  setting: string;
  default: string;
  kind: 'base' | 'full';
}

/**
 * The platform app's settings (`HERALD_<NAME>_…`). Platforms that connect without an app of Herald's
 * (an app password, a per-instance registration) have no `credentials`.
 */
export interface AppSettingsSpec {
  /** The names of the app's id and secret settings, e.g. HERALD_TWITTER_CLIENT_ID. */
  credentials?: { id: string; secret: string };
  apiUrl: UrlSetting;
  /** The consent page; absent for platforms with no browser step. */
  authUrl?: UrlSetting;
  /** Where codes are exchanged and tokens refreshed or revoked, when not below apiUrl. */
  tokenUrl?: UrlSetting;
  /** An API version the operator may pin (Graph's vNN.0, LinkedIn's YYYYMM). */
  version?: { setting: string; default: string; pattern: RegExp; example: string };
}

/** Where a platform's emulator is mounted in the sandbox, and how to make it. */
export interface SandboxSpec {
  /** Mount name below /sandbox; platforms sharing one API (Facebook and Instagram) share one emulator. */
  mount: string;
  /** The consent page below the mount, as the real host has it. */
  authPath?: string;
  createEmulator(options: EmulatorOptions): Emulator;
}

/** A post-level settings object of the create body that applies to one platform (SPEC's tiktokSettings). */
export interface PostLevelSettings {
  field: string;
  schema: TSchema;
}

export interface PlatformDescriptor<Name extends string = string> {
  name: Name;
  /** The platform's settings: app credentials, URLs, version. Several platforms may share one (Meta). */
  app: AppSettingsSpec;
  /** Static facts: scopes, PKCE, refresh ahead, publishing limits, revoke. */
  info: PlatformInfo;
  /** Schema of the target's platformSpecificData. */
  settingsSchema: TSchema;
  /** A post-level settings object that this platform reads (overridden by platformSpecificData). */
  postLevel?: PostLevelSettings;
  /**
   * What the platform accepts of a media file (format, bytes, sides, aspect ratio, duration, codecs), as
   * data: library media is checked against it at create (422) and fitted to it at publish.
   */
  mediaRules?: MediaRules;
  /** Pure create-time rules for a target (422s). */
  validate(target: TargetContent, account: { meta: AccountMeta }): RuleViolation[];
  /** The text's length the way the platform counts it, and its limit for this account (validate). */
  characters(text: string, account: { meta: AccountMeta }): { used: number; limit: number };
  createAdapter(deps: AdapterDeps): PlatformAdapter;
  sandbox: SandboxSpec;
  /** What a post's URL looks like, `{id}` standing for its id (webhook samples, docs). */
  postUrlExample: string;
}
