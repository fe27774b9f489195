/** What a WebAuthn challenge was issued for. */
export type ChallengePurpose = 'sign-up' | 'sign-in' | 'add-passkey' | 'code-passkey';

/**
 * WebAuthn challenges, known to every instance sharing the store: each is taken once, before
 * it expires, by whichever instance the browser's answer reaches.
 */
export interface WebAuthnChallengeStore {
  /**
   * Keeps `challenge` for `purpose` with what the ceremony needs later (`data`, JSON) until
   * `expiresAt`; challenges expired at `now` are dropped meanwhile.
   */
  putChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    data: unknown,
    times: { expiresAt: string; now: string },
  ): Promise<void>;
  /**
   * Takes `challenge` for `purpose`, once: its data, or undefined when it was never issued for
   * that purpose, was taken already, or expired at or before `now`.
   */
  takeChallenge(challenge: string, purpose: ChallengePurpose, now: string): Promise<unknown>;
}
