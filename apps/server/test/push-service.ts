import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser's side of a subscription: the keys the test made, which the server never sees whole. */
export interface TestBrowser {
  /** The subscription as `PushSubscription.toJSON()` gives it to the page. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  privateKey: Buffer;
  publicKey: Buffer;
  auth: Buffer;
}

/** A message the push service took: who it was for, its decrypted payload, and what was wrong with it. */
export interface ReceivedPush {
  browser: string;
  /** The decrypted payload, as text. */
  payload: string;
  headers: Record<string, string | string[] | undefined>;
  /** Every check of the request that failed (VAPID signature, claims, encryption); empty when it is sound. */
  faults: string[];
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** The payload of an aes128gcm message (RFC 8188) encrypted to `browser` per RFC 8291. */
export function decryptPush(browser: TestBrowser, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(browser.privateKey);
  const shared = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.publicKey, serverPublic]);
  const ikm = hkdf(browser.auth, shared, keyInfo, 32);
  const key = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 2, then any zeros of padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** What is wrong with a request's VAPID authorization (RFC 8292), checked against `serverKey`. */
export function vapidFaults(
  authorization: string | undefined,
  serverKey: string,
  endpoint: string,
  now: number,
): string[] {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) return [`no vapid authorization: ${authorization}`];
  const [, token = '', key = ''] = match;
  const faults: string[] = [];
  if (key !== serverKey) faults.push('k is not the server key');
  const [header = '', claims = '', signature = ''] = token.split('.');
  const point = Buffer.from(serverKey, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) faults.push('the JWT signature does not verify with the server key');
  const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
  if (alg !== 'ES256') faults.push(`alg ${alg}`);
  const { aud, exp, sub } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (aud !== new URL(endpoint).origin) faults.push(`aud ${aud}`);
  if (typeof exp !== 'number' || exp * 1000 <= now || exp * 1000 > now + 24 * 3600 * 1000) {
    faults.push(`exp ${exp}`);
  }
  if (!sub || !/^(mailto:|https:)/.test(sub)) faults.push(`sub ${sub}`);
  return faults;
}

/**
 * A push service for tests, speaking RFC 8030 on loopback: each browser made here gets an
 * endpoint; a message posted to it is checked (VAPID against `serverKey`, aes128gcm) and
 * decrypted with the browser's keys, then answered with the browser's status (201 unless set).
 */
export class TestPushService {
  readonly received: ReceivedPush[] = [];
  private arrivals: (() => void)[] = [];
  private readonly browsers = new Map<string, { browser: TestBrowser; status: number }>();
  private server: Server | undefined;
  private origin = '';
  /** The VAPID public key messages must be signed with (set once the server answered it). */
  serverKey = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = (req.url ?? '').replace(/^\/push\//, '');
        const known = this.browsers.get(id);
        if (!known || req.method !== 'POST') {
          res.writeHead(404).end();
          return;
        }
        const endpoint = `${this.origin}${req.url}`;
        const faults = vapidFaults(req.headers.authorization, this.serverKey, endpoint, Date.now());
        if (req.headers['content-encoding'] !== 'aes128gcm') faults.push('not aes128gcm');
        if (!/^\d+$/.test(String(req.headers.ttl))) faults.push('no TTL');
        let payload = '';
        try {
          payload = decryptPush(known.browser, Buffer.concat(chunks));
        } catch (error) {
          faults.push(`cannot decrypt: ${(error as Error).message}`);
        }
        this.received.push({ browser: id, payload, headers: req.headers, faults });
        res.writeHead(known.status).end();
        for (const arrival of this.arrivals.splice(0)) arrival();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  /** A new browser with keys of its own; the push service answers its messages with `status`. */
  browser(name: string, status = 201): TestBrowser {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const browser: TestBrowser = {
      subscription: {
        endpoint: `${this.origin}/push/${name}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      },
      privateKey: ecdh.getPrivateKey(),
      publicKey: ecdh.getPublicKey(),
      auth: Buffer.alloc(0),
    };
    browser.auth = Buffer.from(browser.subscription.keys.auth, 'base64url');
    this.browsers.set(name, { browser, status });
    return browser;
  }

  /**
   * Resolves once `count` messages wait to be taken: for messages the server sends without
   * anyone awaiting them (the match room's).
   */
  async arrived(count: number, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.received.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`${this.received.length} of ${count} push messages arrived`);
      }
      await new Promise<void>((resolve) => {
        this.arrivals.push(resolve);
        setTimeout(resolve, deadline - Date.now());
      });
    }
  }

  /** Messages taken since the last call, oldest first. */
  take(): ReceivedPush[] {
    return this.received.splice(0);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
