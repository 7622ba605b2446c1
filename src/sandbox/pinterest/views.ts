// How the emulator writes Pins and board access, as Pinterest's Pin model (OpenAPI `Pin`) has them.
import type { Caller } from './context.ts';
import { isoSeconds, type PinRecord } from './store.ts';
import type { SandboxBoard, SandboxUser } from './users.ts';

const RENDITIONS: [string, number, number][] = [
  ['150x150', 150, 150],
  ['400x300', 400, 300],
  ['600x', 600, 900],
  ['1200x', 1200, 1800],
];

function images(pinId: string, n = 0): Record<string, unknown> {
  return Object.fromEntries(RENDITIONS.map(([key, width, height]) => [key, { width, height, url: `https://i.pinimg.com/${key}/sandbox/${pinId}-${n}.jpg` }]));
}

function mediaJson(pin: PinRecord): Record<string, unknown> {
  if (pin.mediaType === 'video') {
    return { media_type: 'video', images: images(pin.id), cover_image_url: `https://i.pinimg.com/videos/thumbnails/originals/sandbox/${pin.id}.jpg`, video_url: null, duration: 0, height: 1920, width: 1080 };
  }
  if (pin.mediaType === 'multiple_images') {
    return { media_type: 'multiple_images', items: pin.media.map((_m, i) => ({ title: null, description: null, link: null, images: images(pin.id, i) })) };
  }
  return { media_type: 'image', images: images(pin.id) };
}

const CREATIVE_TYPE: Record<PinRecord['mediaType'], string> = { image: 'REGULAR', multiple_images: 'CAROUSEL', video: 'VIDEO' };

export function pinJson(pin: PinRecord, owner: SandboxUser, callerId: string): Record<string, unknown> {
  return {
    id: pin.id,
    created_at: isoSeconds(pin.createdAt),
    link: pin.link,
    title: pin.title,
    description: pin.description,
    dominant_color: '#e9e9e9',
    alt_text: pin.altText,
    creative_type: CREATIVE_TYPE[pin.mediaType],
    board_id: pin.boardId,
    board_section_id: null,
    board_owner: { username: owner.username },
    is_owner: owner.id === callerId,
    media: mediaJson(pin),
    parent_pin_id: null,
    is_standard: true,
    has_been_promoted: false,
    note: '',
    pin_metrics: null,
  };
}

/** Secret boards exist for a token only with boards:read_secret (they are not listed without it). */
export function canSeeBoard(caller: Caller, board: SandboxBoard): boolean {
  return board.privacy !== 'SECRET' || caller.scopes.includes('boards:read_secret');
}

/** Writing Pins to a secret board needs the secret write scopes too (§9.2; unconfirmed, §9.13 point 10). */
export function canWriteBoard(caller: Caller, board: SandboxBoard): boolean {
  return board.ownerId === caller.user.id && canSeeBoard(caller, board) && (board.privacy !== 'SECRET' || (caller.scopes.includes('boards:write_secret') && caller.scopes.includes('pins:write_secret')));
}
