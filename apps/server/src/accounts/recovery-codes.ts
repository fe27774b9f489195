import { createHmac, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@iron-curtain/protocol';
import type { SecretStore } from '../storage/index.ts';

const KEY_NAME = 'recovery-codes-key';

/** A code as typed: case, dashes and spaces do not matter. */
const normal = (code: string) => code.toLowerCase().replace(/[^a-z2-7]/g, '');

/** 80 random bits in base32 (a-z, 2-7), shown as four groups of four. */
function newCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bits = [...randomBytes(10)].map((b) => b.toString(2).padStart(8, '0')).join('');
  const chars = Array.from({ length: 16 }, (_, i) =>
    alphabet.charAt(Number.parseInt(bits.slice(i * 5, i * 5 + 5), 2)),
  );
  return [0, 4, 8, 12].map((at) => chars.slice(at, at + 4).join('')).join('-');
}

/**
 * Recovery codes: ten per account, each 80 random bits, kept only as an HMAC under a server
 * secret (made on first use, kept in the store like the computer seats' key, the same on every
 * instance). Random codes this long need no slow hash; the key keeps a leaked table from being
 * checked against guesses offline.
 */
export class RecoveryCodes {
  private key: Promise<string> | undefined;

  constructor(private readonly secrets: SecretStore) {}

  /** Ten new codes, as shown to the player. */
  fresh(): string[] {
    return Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  }

  async hash(code: string): Promise<string> {
    this.key ??= this.secrets.serverSecret(KEY_NAME, randomBytes(32).toString('base64url'));
    const key = await this.key.catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', Buffer.from(key, 'base64url'))
      .update(normal(code))
      .digest('base64url');
  }
}
