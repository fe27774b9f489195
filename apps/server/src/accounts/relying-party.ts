import { LobbyError } from '../edge/lobby-error.ts';

/** Who passkeys belong to: the relying party's ID (a host) and the one origin ceremonies come from. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

/** Browsers treat localhost as a secure context: passkeys work there over plain http. */
const isLocalhost = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost');

/**
 * The relying party of a ceremony: PUBLIC_URL's host and origin when set, else the request's
 * own. Refused with HTTPS_REQUIRED over plain http anywhere but localhost, where browsers offer
 * no passkey and a network in between could read the session.
 */
export function relyingParty(
  publicUrl: string | undefined,
  request: { protocol: string; host: string },
): RelyingParty {
  const url = new URL(publicUrl ?? `${request.protocol}://${request.host}`);
  if (url.protocol !== 'https:' && !isLocalhost(url.hostname)) {
    throw new LobbyError(
      400,
      'HTTPS_REQUIRED',
      `passkeys need HTTPS: ${url.origin} is plain http (set PUBLIC_URL to the https address players reach)`,
    );
  }
  return { rpID: url.hostname, origin: url.origin };
}
