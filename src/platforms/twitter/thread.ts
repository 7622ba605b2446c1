// A twitter target is a chain of posts: the target's own content first, then settings.threadItems,
// each a reply to the one before.
export { chainOf, type ChainItem } from '../thread-chain.ts';

export function replySettingsOf(settings: Record<string, unknown>): string | undefined {
  return typeof settings.replySettings === 'string' ? settings.replySettings : undefined;
}
