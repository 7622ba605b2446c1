import { test } from 'node:test';
import assert from 'node:assert/strict';
import { derivePostStatus } from '../../../src/posts/status.ts';

type P = { is_draft: number; scheduled_for: number | null };
const now: P = { is_draft: 0, scheduled_for: null };
const later: P = { is_draft: 0, scheduled_for: 2_000 };
const NOW = 1_000;
const t = (status: 'pending' | 'publishing' | 'published' | 'failed', attempts = 1) => ({ status, attempts });

test('post status follows its targets', () => {
  const table: [P, ReturnType<typeof t>[], string][] = [
    [{ is_draft: 1, scheduled_for: null }, [], 'draft'],
    [{ is_draft: 1, scheduled_for: 1 }, [t('pending', 0)], 'draft'],
    [{ is_draft: 0, scheduled_for: 500 }, [t('pending', 0)], 'publishing'], // its time has come
    [later, [t('pending', 0), t('pending', 0)], 'scheduled'],
    [later, [t('pending', 0), t('publishing')], 'publishing'],
    [now, [t('pending', 0)], 'publishing'],
    [now, [t('published'), t('pending')], 'publishing'],
    [now, [t('published'), t('published')], 'published'],
    [now, [t('failed'), t('failed')], 'failed'],
    [now, [t('published'), t('failed')], 'partial'],
    [later, [t('published'), t('failed')], 'partial'],
    [later, [t('failed'), t('pending', 1)], 'publishing'],
  ];
  for (const [post, targets, expected] of table) assert.equal(derivePostStatus(post, targets, NOW), expected, JSON.stringify([post, targets]));
});
