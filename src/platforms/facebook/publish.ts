// Facebook Page publishing by the shape of the target: text/link, one photo, an album of photos, one
// video, a reel or a story. Reels, videos and stories live in publish-video.ts.
import { failure, type MediaItem, type PublishOutcome, type PublishRequest } from '../types.ts';
import { str } from '../meta/graph.ts';
import { page, published, readCheckpoint, settingsOf, stagePhoto, type FacebookContext } from './common.ts';
import { publishPhotoStory, publishReel, publishVideo, publishVideoStory } from './publish-video.ts';

export async function publishFacebook(ctx: FacebookContext, req: PublishRequest): Promise<PublishOutcome> {
  const settings = settingsOf(req);
  const images = req.media.filter((m) => m.type === 'image');
  const videos = req.media.filter((m) => m.type === 'video');
  const contentType = settings.contentType ?? 'feed';

  if (contentType === 'reel') {
    const video = videos[0];
    return video ? publishReel(ctx, req, video.url) : failure('content_rejected', 'Facebook: a reel needs one video');
  }
  if (contentType === 'story') {
    const item = req.media[0];
    if (!item) return failure('content_rejected', 'Facebook: a story needs one image or video');
    return item.type === 'video' ? publishVideoStory(ctx, req, item.url) : publishPhotoStory(ctx, req, item.url);
  }
  const video = videos[0];
  if (video) return publishVideo(ctx, req, video.url);
  const image = images[0];
  if (images.length === 1 && image) return publishPhoto(ctx, req, image.url, image.altText);
  if (images.length > 1) return publishAlbum(ctx, req, images);
  return publishText(ctx, req, settings.link);
}

async function publishText(ctx: FacebookContext, req: PublishRequest, link: string | undefined): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const res = await ctx.graph.post(
    `/${pageId}/feed`,
    token,
    { message: req.content || undefined, link },
    { label: 'Facebook post', creates: true, signal: req.signal },
  );
  if (!res.ok) return res.failure;
  const id = str(res.body, 'id');
  if (!id) return failure('outcome_unknown', 'Facebook post: the answer carried no post id');
  return published(ctx, req, id, `https://www.facebook.com/${id}`);
}

async function publishPhoto(ctx: FacebookContext, req: PublishRequest, url: string, altText?: string): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const res = await ctx.graph.post(
    `/${pageId}/photos`,
    token,
    { url, message: req.content || undefined, alt_text_custom: altText || undefined },
    { label: 'Facebook photo post', creates: true, signal: req.signal },
  );
  if (!res.ok) return res.failure;
  // post_id is the feed story ("{page}_{post}"); id alone is the photo object.
  const id = str(res.body, 'post_id') ?? str(res.body, 'id');
  if (!id) return failure('outcome_unknown', 'Facebook photo post: the answer carried no id');
  return published(ctx, req, id, `https://www.facebook.com/${id}`);
}

/** Several photos: each staged unpublished, then one feed post attaching them all. */
async function publishAlbum(ctx: FacebookContext, req: PublishRequest, images: MediaItem[]): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const cp = readCheckpoint(req.checkpoint);
  let photoIds = cp?.flow === 'album' && cp.photoIds.length === images.length ? cp.photoIds : undefined;
  if (!photoIds) {
    photoIds = [];
    for (const image of images) {
      const staged = await stagePhoto(ctx, req, image.url, image.altText);
      if (!staged.ok) return staged.failure;
      const id = str(staged.body, 'id');
      if (!id) return failure('platform_unavailable', 'Facebook photo upload: the answer carried no photo id');
      photoIds.push(id);
    }
    await req.saveCheckpoint({ flow: 'album', photoIds });
  }
  const form: Record<string, string | undefined> = { message: req.content || undefined };
  photoIds.forEach((id, i) => {
    form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
  });
  const res = await ctx.graph.post(`/${pageId}/feed`, token, form, { label: 'Facebook multi-photo post', creates: true, signal: req.signal });
  if (!res.ok) return res.failure;
  const id = str(res.body, 'id');
  if (!id) return failure('outcome_unknown', 'Facebook multi-photo post: the answer carried no post id');
  return published(ctx, req, id, `https://www.facebook.com/${id}`);
}
