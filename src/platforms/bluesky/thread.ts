// A bluesky target is a chain of posts: the target's own content first, then settings.threadItems, each a
// reply to the one before (root = the first post, parent = the previous one).
export { chainOf, type ChainItem } from '../thread-chain.ts';

export function langsOf(settings: Record<string, unknown>): string[] | undefined {
  const langs = settings.langs;
  return Array.isArray(langs) && langs.length > 0 && langs.every((l) => typeof l === 'string') ? (langs as string[]) : undefined;
}
