import { createECDH, randomBytes } from 'node:crypto';
import { pushSubscriptionSchema } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { subscriptionKeysProblem } from '../src/push/subscription-keys.ts';

/** A browser's keys as PushSubscription.toJSON() spells them: a fresh P-256 point and 16 bytes. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    point: ecdh.getPublicKey(),
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

/** What the route checks, in its order: the schema's spelling, then the keys themselves. */
const problem = (keys: { p256dh: string; auth: string }) => {
  const spelled = z.safeParse(pushSubscriptionSchema, { endpoint: 'https://push.test/1', keys });
  return spelled.success ? subscriptionKeysProblem(keys) : spelled.error.issues[0]?.message;
};

describe('a push subscription’s keys', () => {
  it('take a real browser key pair’s public point and a 16-byte secret', () => {
    for (let i = 0; i < 20; i++) {
      const { p256dh, auth } = browserKeys();
      expect(problem({ p256dh, auth })).toBeNull();
    }
  });

  it('refuse a p256dh that is spelled right but is no point of the curve ("B" + 86 "A": 0x04 and zeros)', () => {
    const { auth } = browserKeys();
    expect(problem({ p256dh: `B${'A'.repeat(86)}`, auth })).toMatch(
      /p256dh.*not on the P-256 curve/,
    );
  });

  it('refuse a point moved off the curve by one bit of y, and one whose x is past the field', () => {
    const { point, auth } = browserKeys();
    const moved = Buffer.from(point);
    moved[64] = (moved[64] as number) ^ 1;
    expect(problem({ p256dh: moved.toString('base64url'), auth })).toMatch(
      /not on the P-256 curve/,
    );
    const beyond = Buffer.concat([Buffer.from([4]), Buffer.alloc(32, 0xff), point.subarray(33)]);
    expect(problem({ p256dh: beyond.toString('base64url'), auth })).toMatch(/p256dh/);
  });

  it('refuse a p256dh that is not an uncompressed point: another prefix, the compressed form, stray bits', () => {
    const { point, auth } = browserKeys();
    const prefixed = Buffer.from(point);
    prefixed[0] = 5;
    const compressed = Buffer.concat([
      Buffer.from([2 + ((point[64] as number) & 1)]),
      point.subarray(1, 33),
    ]);
    const p256dh = point.toString('base64url');
    const stray = `${p256dh.slice(0, -1)}${p256dh.endsWith('B') ? 'C' : 'B'}`;
    for (const bad of [prefixed.toString('base64url'), compressed.toString('base64url'), stray]) {
      expect(problem({ p256dh: bad, auth }), bad).toMatch(/p256dh/);
    }
  });

  it('refuse an auth secret that is not 16 bytes', () => {
    const { p256dh } = browserKeys();
    for (const auth of [
      randomBytes(15).toString('base64url'),
      randomBytes(17).toString('base64url'),
      'AAAAAAAAAAAAAAAAAAAAAB', // 22 characters, but 4 bits past the 16 bytes
      `${randomBytes(16).toString('base64url')}==`,
    ]) {
      expect(problem({ p256dh, auth }), auth).toMatch(/auth/);
    }
  });
});
