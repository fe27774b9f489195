import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { Encoder } from 'cbor-x';

// A software authenticator for the tests: an ES256 key from node:crypto, its attestation
// object and authenticator data encoded with cbor-x (the server never parses CBOR itself:
// @simplewebauthn/server does). What a browser and a passkey provider do, in one place.

const cbor = new Encoder({
  useRecords: false,
  tagUint8Array: false,
  variableMapSize: true,
  mapsAsObjects: false,
});
const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** User present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpID: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    /** The origin the "browser" reports in its client data. */
    private readonly origin: string,
  ) {}

  /** Makes a discoverable passkey for the creation options: the browser's RegistrationResponseJSON. */
  register(options: CreationOptions) {
    const rpID = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor.encode(
      new Map<number, number | Buffer>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const credential: Credential = {
      id: randomBytes(16),
      privateKey,
      userHandle: options.user.id,
      rpID,
      counter: 0,
    };
    this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpID),
      Buffer.from([UP | UV | AT]),
      u32(0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      cose,
    ]);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    return {
      id: b64u(credential.id),
      rawId: b64u(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(Buffer.from(clientData)),
        attestationObject: b64u(cbor.encode({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * Signs the request options' challenge with a passkey (the latest by default), its counter
   * moved on by one unless `counter` says otherwise: the browser's AuthenticationResponseJSON.
   */
  authenticate(
    options: { challenge: string },
    use: { credential?: Credential; counter?: number } = {},
  ) {
    const credential = use.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error('no passkey to sign with');
    credential.counter = use.counter ?? credential.counter + 1;
    const authData = Buffer.concat([
      sha256(credential.rpID),
      Buffer.from([UP | UV]),
      u32(credential.counter),
    ]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      credential.privateKey,
    );
    return {
      id: b64u(credential.id),
      rawId: b64u(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(clientData),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
