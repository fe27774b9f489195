import { createPublicKey } from 'node:crypto';
import type { PushSubscriptionJSON } from '@iron-curtain/protocol';

/** An uncompressed P-256 point: 0x04, then x and y of 32 bytes each (SEC 1, 2.3.3). */
const POINT_BYTES = 65;
const UNCOMPRESSED = 0x04;
/** RFC 8291's authentication secret. */
const AUTH_BYTES = 16;

/** The bytes of `text` when it is their one base64url spelling (no padding, no stray bits). */
function base64url(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** Whether `point` lies on P-256: Node's key import checks it (x and y in the field, on the curve). */
function onP256(point: Buffer): boolean {
  try {
    createPublicKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a subscription's keys, beyond their spelling (the protocol's schema):
 * p256dh must be a point a message can be encrypted to, auth exactly 16 bytes. A key the push
 * message could never be encrypted to is refused when it is given, not at the first turn.
 */
export function subscriptionKeysProblem(keys: PushSubscriptionJSON['keys']): string | null {
  const point = base64url(keys.p256dh);
  if (point?.length !== POINT_BYTES || point[0] !== UNCOMPRESSED) {
    return 'subscription.keys.p256dh: not an uncompressed P-256 point (65 bytes from 0x04) in base64url';
  }
  if (!onP256(point)) return 'subscription.keys.p256dh: the point is not on the P-256 curve';
  if (base64url(keys.auth)?.length !== AUTH_BYTES) {
    return `subscription.keys.auth: not ${AUTH_BYTES} bytes in base64url`;
  }
  return null;
}
