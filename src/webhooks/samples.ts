// Realistic sample events for POST /v1/webhooks/test, built by the catalog's own builders so a sample
// has exactly the fields of the real event. Ids start with "sample" so a receiver (or a person reading
// logs) can tell them apart.
import {
  accountConnected,
  accountDisconnected,
  accountExpiring,
  postCompleted,
  postDeleted,
  postEdited,
  postFailed,
  postPublished,
  postScheduled,
  postUpdated,
  postUnpublished,
  webhookTest,
  type CatalogEvent,
  type EventName,
} from '../events/catalog.ts';

/** The platform target the samples name; the caller picks a platform of the registry. */
export interface SampleTarget {
  platform: string;
  platformPostUrl(id: string): string;
}

export function sampleEvent(event: EventName, now: number, sample: SampleTarget): CatalogEvent {
  const postId = 'post_sampleAAAAAAAAAAAAAAA';
  const target = { postId, platform: sample.platform, accountId: 'sample1234567890' };
  const account = { platform: sample.platform, accountId: target.accountId, username: 'sample_user' };
  const platformPostId = '1790000000000000000';
  const published = { ...target, platformPostId, platformPostUrl: sample.platformPostUrl(platformPostId) };
  switch (event) {
    case 'post.scheduled':
      return postScheduled(postId, now + 3_600_000);
    case 'post.published':
      return postPublished(published);
    case 'post.failed':
      return postFailed({ ...target, error: 'the platform refused the post: duplicate content', errorCode: 'content_rejected' });
    case 'post.completed':
      return postCompleted({
        postId,
        status: 'published',
        platforms: [
          {
            platform: sample.platform as never,
            accountId: target.accountId,
            status: 'published',
            platformPostId,
            platformPostUrl: published.platformPostUrl,
            attempts: 1,
            publishedAt: new Date(now).toISOString(),
          },
        ],
      });
    case 'post.deleted':
      return postDeleted(postId);
    case 'post.edited':
      return postEdited({ ...target, platformPostId: '1790000000000000001', previousPlatformPostId: platformPostId });
    case 'post.updated':
      return postUpdated(postId, 2);
    case 'post.unpublished':
      return postUnpublished(postId, [{ platform: sample.platform, accountId: target.accountId, unpublished: true }]);
    case 'account.connected':
      return accountConnected(account);
    case 'account.disconnected':
      return accountDisconnected(account, 'user');
    case 'account.expiring':
      return accountExpiring(account, now + 5 * 24 * 3_600_000);
    case 'webhook.test':
      return webhookTest();
  }
}
