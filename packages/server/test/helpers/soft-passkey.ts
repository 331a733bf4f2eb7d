import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const b64url = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');

/** What a test may change in a ceremony, to see the server refuse it. */
export interface Tamper {
  origin?: string;
  crossOrigin?: boolean;
  /** Authenticator flags (default: user present and verified). */
  flags?: number;
  /** The signature counter of this assertion (default: one more than the last). */
  counter?: number;
  /** Sign the hash of another rpId. */
  rpId?: string;
  userHandle?: string;
  challenge?: string;
  corruptSignature?: boolean;
}

/**
 * A software WebAuthn authenticator (ES256, "none" attestation) for tests that need to send what
 * no real browser would (another origin's client data, no user verification, a counter gone back):
 * the server must refuse each. Real ceremonies are tested in Chromium (passkeys-browser.test.ts).
 */
export class SoftPasskey {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  readonly credentialId = randomBytes(32);
  private userHandle?: string;
  private rpId = '';

  constructor(
    private readonly origin: string,
    public counter = 1,
  ) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), c, attested ?? Buffer.alloc(0)]);
  }

  private clientData(type: string, challenge: string, t: Tamper): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: t.origin ?? this.origin, crossOrigin: t.crossOrigin ?? false }));
  }

  /** navigator.credentials.create() for creation options (JSON), answered as RegistrationResponseJSON. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, t: Tamper = {}) {
    this.rpId = options.rp.id ?? new URL(this.origin).hostname;
    this.userHandle = options.user.id;
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = this.credentialId;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, id, Buffer.from(cose)]);
    const authData = this.authData(t.rpId ?? this.rpId, t.flags ?? FLAG_UP | FLAG_UV | FLAG_AT, this.counter, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', t.challenge ?? options.challenge, t)),
        attestationObject: b64url(attestationObject),
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() for request options (JSON), answered as AuthenticationResponseJSON. */
  assert(options: { challenge: string }, t: Tamper = {}) {
    const counter = t.counter ?? (this.counter > 0 ? this.counter + 1 : 0);
    this.counter = counter;
    const authData = this.authData(t.rpId ?? this.rpId, t.flags ?? FLAG_UP | FLAG_UV, counter);
    const cd = this.clientData('webauthn.get', t.challenge ?? options.challenge, t);
    const signature = sign('sha256', Buffer.concat([authData, sha256(cd)]), this.privateKey);
    if (t.corruptSignature) signature[signature.length - 1] ^= 1;
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(cd),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: t.userHandle ?? this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}

export { FLAG_UP };
