// A small software authenticator for API tests (decision 026): it makes real WebAuthn answers the way a security key
// or a phone does (an ES256 key from node:crypto, attestation "none" in CBOR, authenticatorData with the rpIdHash,
// flags and a signature counter, and an ECDSA signature over authenticatorData and the hash of clientDataJSON).
// It is a test authenticator, not a stand-in for our server: the server checks its answers with @simplewebauthn/server.
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [k: string]: Cbor };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** Enough CBOR (RFC 8949) for attestation objects and COSE keys: integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries: [Cbor, Cbor][] = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (b: Uint8Array): string => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string): Buffer => createHash('sha256').update(b).digest();

const FLAG = { UP: 0x01, UV: 0x04, AT: 0x40 } as const;

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  cosePublicKey: Buffer;
  counter: number;
  rpId: string;
  userHandle: string;
}

export interface AuthenticatorOptions {
  /** The page's origin the browser would put in clientDataJSON. */
  origin: string;
  /** Whether the authenticator verifies the user (PIN, fingerprint): the UV flag. */
  userVerified?: boolean;
}

/** What a test may change in one answer, to prove the server refuses it. */
export interface AnswerOverrides {
  origin?: string;
  userVerified?: boolean;
  /** Answer with this credential (by id) instead of the first one allowed. */
  credentialId?: string;
  /** Use this signature counter instead of the next one. */
  counter?: number;
  /** Sign a different challenge than the options asked for. */
  challenge?: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export interface RegistrationAnswer {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

export interface AssertionAnswer {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

export class TestAuthenticator {
  readonly credentials: StoredCredential[] = [];
  constructor(private readonly options: AuthenticatorOptions) {}

  /** navigator.credentials.create(): a new ES256 credential for the options' relying party. */
  register(options: CreationOptions, overrides: AnswerOverrides = {}): RegistrationAnswer {
    const rpId = options.rp.id ?? 'localhost';
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(32);
    const stored: StoredCredential = { id, privateKey, cosePublicKey, counter: 0, rpId, userHandle: options.user.id };
    this.credentials.push(stored);
    const uv = overrides.userVerified ?? this.options.userVerified ?? true;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG.UP | FLAG.AT | (uv ? FLAG.UV : 0)]),
      Buffer.alloc(4), // signCount 0
      Buffer.alloc(16), // AAGUID: none
      idLength,
      id,
      cosePublicKey,
    ]);
    const clientDataJSON = this.clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides);
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): signs the options' challenge with an allowed (or the first) credential. */
  assert(options: RequestOptions, overrides: AnswerOverrides = {}): AssertionAnswer {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const wanted = overrides.credentialId ?? allowed?.find((id) => this.credentials.some((c) => b64url(c.id) === id));
    const credential = wanted ? this.credentials.find((c) => b64url(c.id) === wanted) : this.credentials[0];
    if (!credential) throw new Error('TestAuthenticator: no credential for these options');
    credential.counter = overrides.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const uv = overrides.userVerified ?? this.options.userVerified ?? true;
    const authData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([FLAG.UP | (uv ? FLAG.UV : 0)]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides);
    const signature = createSign('sha256')
      .update(Buffer.concat([authData, sha256(clientDataJSON)]))
      .sign(credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, overrides: AnswerOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: overrides.origin ?? this.options.origin, crossOrigin: false }));
  }
}
