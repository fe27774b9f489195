/** Secrets of the server itself (the key of computer seats' credentials, the VAPID key pair). */
export interface SecretStore {
  /**
   * The server secret `name`: `fresh` is stored on the first call, and every later call, on
   * every instance sharing the store, answers the stored one. Never sent to a client.
   */
  serverSecret(name: string, fresh: string): Promise<string>;
}
