// App passwords as Bluesky shows them: four groups of four base32 characters.
import { randomInt } from 'node:crypto';

const CHARS = 'abcdefghijklmnopqrstuvwxyz234567';

export function randomAppPassword(): string {
  const group = () => Array.from({ length: 4 }, () => CHARS[randomInt(0, CHARS.length)]).join('');
  return `${group()}-${group()}-${group()}-${group()}`;
}
