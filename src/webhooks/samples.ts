// Realistic sample data of every event, for POST /v1/webhooks/test. The fields are exactly those the
// real events carry; ids start with "sample" so a receiver (or a person reading logs) can tell them apart.
import type { EventName } from './outbox.ts';

export function sampleData(event: EventName, now: number): Record<string, unknown> {
  const postId = 'post_sampleAAAAAAAAAAAAAAA';
  const target = { postId, platform: 'twitter', accountId: 'sample1234567890' };
  const published = {
    platform: 'twitter',
    accountId: target.accountId,
    status: 'published',
    platformPostId: '1790000000000000000',
    platformPostUrl: 'https://x.com/sample/status/1790000000000000000',
    attempts: 1,
    publishedAt: new Date(now).toISOString(),
  };
  switch (event) {
    case 'post.scheduled':
      return { postId, scheduledFor: new Date(now + 3_600_000).toISOString() };
    case 'post.published':
      return { ...target, platformPostId: published.platformPostId, platformPostUrl: published.platformPostUrl, status: 'published' };
    case 'post.failed':
      return { ...target, error: 'X refused the post: duplicate content', errorCode: 'content_rejected', status: 'failed' };
    case 'post.completed':
      return { postId, status: 'published', platforms: [published] };
    case 'post.deleted':
      return { postId };
    case 'post.edited':
      return { ...target, platformPostId: '1790000000000000001', previousPlatformPostId: published.platformPostId };
    case 'account.connected':
      return { platform: 'twitter', accountId: target.accountId, username: 'sample_user' };
    case 'account.disconnected':
      return { platform: 'twitter', accountId: target.accountId, username: 'sample_user', reason: 'user' };
    case 'webhook.test':
      return { message: 'This is a test notification from Herald.' };
  }
}
