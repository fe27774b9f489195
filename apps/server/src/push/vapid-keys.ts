import webpush from 'web-push';
import type { Config } from '../ops/config.ts';
import type { SecretStore } from '../storage/index.ts';

/** The server's VAPID identity: the key pair push services check its messages against, and its contact. */
export interface VapidDetails {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The name of the key pair in the store's server secrets. */
const SECRET_NAME = 'vapid-keys';

export type VapidConfig = Pick<
  Config,
  'PUSH_VAPID_PUBLIC_KEY' | 'PUSH_VAPID_PRIVATE_KEY' | 'PUSH_CONTACT'
>;

/**
 * The operator's keys when set; otherwise a pair made on the first start and kept in the
 * store, so every instance sharing it signs with the same one (a browser subscribed through
 * one instance takes messages from all). Read once; a failed read is tried again next time.
 */
export class VapidKeys {
  private details: Promise<VapidDetails> | undefined;

  constructor(
    private readonly config: VapidConfig,
    private readonly secrets: SecretStore,
  ) {}

  get(): Promise<VapidDetails> {
    this.details ??= this.read().catch((error: unknown) => {
      this.details = undefined;
      throw error;
    });
    return this.details;
  }

  private async read(): Promise<VapidDetails> {
    const subject = this.config.PUSH_CONTACT;
    const { PUSH_VAPID_PUBLIC_KEY: publicKey, PUSH_VAPID_PRIVATE_KEY: privateKey } = this.config;
    if (publicKey !== undefined && privateKey !== undefined) {
      return { publicKey, privateKey, subject };
    }
    const stored = JSON.parse(
      await this.secrets.serverSecret(SECRET_NAME, JSON.stringify(webpush.generateVAPIDKeys())),
    ) as { publicKey: string; privateKey: string };
    return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
  }
}
