import type { SignInRequest, SignUpOptionsResponse, SignUpRequest } from '@iron-curtain/protocol';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import { LobbyError } from '../lobby/api.ts';

/**
 * The browser's side of a passkey ceremony (@simplewebauthn/browser), its failures as codes the
 * page has words for: the player cancelled or the browser timed out (PASSKEY_CANCELLED), the
 * browser has no passkeys (PASSKEY_UNSUPPORTED), this authenticator holds one of the account's
 * passkeys already (PASSKEY_ALREADY_HERE), anything else the browser refused (PASSKEY_FAILED).
 */
export function ceremonyError(error: unknown): LobbyError {
  if (error instanceof LobbyError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  // NotAllowedError covers a cancel, a timeout and a refused verification alike: browsers tell them apart to no one.
  if (name === 'NotAllowedError') return new LobbyError('PASSKEY_CANCELLED', message);
  if (name === 'InvalidStateError') return new LobbyError('PASSKEY_ALREADY_HERE', message);
  if (name === 'NotSupportedError') return new LobbyError('PASSKEY_UNSUPPORTED', message);
  return new LobbyError('PASSKEY_FAILED', message);
}

/** An AbortError: the page itself ended a waiting ceremony (autofill, when the button starts another). */
export const isAborted = (error: unknown): boolean =>
  error instanceof Error && error.name === 'AbortError';

function needWebAuthn(): void {
  if (!browserSupportsWebAuthn())
    throw new LobbyError('PASSKEY_UNSUPPORTED', 'the browser makes no passkeys');
}

/** Makes a passkey for the server's creation options; the answer as a sign-up or add request sends it. */
export async function createPasskey(
  options: SignUpOptionsResponse['options'],
): Promise<SignUpRequest['response']> {
  needWebAuthn();
  try {
    // The server's options are the JSON @simplewebauthn/server made; the protocol checks the fields it reads.
    const response = await startRegistration({ optionsJSON: options as never });
    return response as SignUpRequest['response'];
  } catch (error) {
    throw ceremonyError(error);
  }
}

/**
 * Signs the server's challenge with a passkey the player picks: in the browser's own dialog, or,
 * with `autofill`, from the suggestions of the name field (conditional mediation), which waits
 * until the player picks one or the page starts another ceremony (then it rejects with AbortError).
 */
export async function signWithPasskey(
  options: Record<string, unknown> & { challenge: string },
  autofill = false,
): Promise<SignInRequest['response']> {
  needWebAuthn();
  try {
    const response = await startAuthentication({
      optionsJSON: options as never,
      useBrowserAutofill: autofill,
    });
    return response as SignInRequest['response'];
  } catch (error) {
    if (isAborted(error)) throw error;
    throw ceremonyError(error);
  }
}

/** Whether the browser offers passkeys among a name field's suggestions. */
export const autofillOffered = (): Promise<boolean> =>
  browserSupportsWebAuthnAutofill().catch(() => false);

/** Ends a waiting autofill ceremony (leaving the page). */
export const cancelCeremony = (): void => WebAuthnAbortService.cancelCeremony();
