import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { ApiError, notFound } from '../../errors.ts';
import { newId } from '../../ids/ids.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Store } from '../../store/store.ts';
import type { WayInGuard } from '../mfa/adding.ts';
import type { Current, Session, Sessions } from '../sessions.ts';
import { isoAt } from '../tokens.ts';
import { USER_COLUMNS, toUser, type User, type UserRow } from '../../users/users.ts';
import { newChallenge, takeRegistrationChallenge, takeSignInChallenge } from './challenges.ts';
import { relyingParty } from './relying-party.ts';

/** A passkey as the API lists it. */
export interface Passkey {
  id: string;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string | null;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** API.md §2.2: ES256, EdDSA and RS256. */
const ALGORITHMS = [-7, -8, -257];

/** Every failure of a passkey ceremony answers the same, with nothing more said (API.md §2.2). */
const refused = () => new ApiError('invalid_credentials', 'The passkey was not accepted');

const toPasskey = (r: PasskeyRow): Passkey => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at });

/**
 * The client data of a response, parsed; throws on anything malformed. simplewebauthn accepts a
 * `crossOrigin: true` response without a `topOrigin`, which §2.2 refuses: a passkey ceremony
 * inside another site's iframe is not this site's.
 */
function clientData(response: { response?: { clientDataJSON?: unknown } }): { challenge: string } {
  const raw = response?.response?.clientDataJSON;
  if (typeof raw !== 'string') throw new Error('no clientDataJSON');
  const data = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { challenge?: unknown; crossOrigin?: unknown };
  if (data.crossOrigin === true) throw new Error('crossOrigin');
  if (typeof data.challenge !== 'string') throw new Error('no challenge');
  return { challenge: data.challenge };
}

/**
 * Passkeys (WebAuthn Level 2 discoverable credentials, API.md §2.2) with @simplewebauthn/server:
 * registration from a fresh session with a verified e-mail, discoverable sign-in (a complete
 * sign-in: no second step), listing and removal. Challenges are single use and bound to the
 * database (challenges.ts); the signature counter may only grow.
 */
export class Passkeys {
  constructor(private readonly d: { store: Store; clock: Clock; sessions: Sessions; guard: WayInGuard }) {}

  async registrationOptions(databaseId: string, current: Current): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { store, clock } = this.d;
    await this.d.guard.check(current);
    const rp = await relyingParty(store, databaseId);
    const existing = await store.all<PasskeyRow>('SELECT credential_id, transports FROM passkeys WHERE user_id = ?', [current.user.id]);
    const options = await generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpId,
      userName: current.user.email,
      userDisplayName: current.user.name ?? current.user.email,
      userID: new TextEncoder().encode(current.user.id),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    });
    const { challenge } = await newChallenge(store, clock, databaseId, current.user.id);
    return { ...options, challenge };
  }

  async register(databaseId: string, current: Current, response: RegistrationResponseJSON, name: string | undefined): Promise<Passkey> {
    const { store, clock } = this.d;
    await this.d.guard.check(current);
    const rp = await relyingParty(store, databaseId);
    // The challenge is used up first, on its own: a response that fails below has still spent it.
    let challenge: string;
    try {
      challenge = clientData(response).challenge;
    } catch {
      throw refused();
    }
    if (!(await takeRegistrationChallenge(store, clock, databaseId, current.user.id, challenge))) throw refused();
    const row = await store.transaction(async (tx) => {
      let info: NonNullable<Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']>;
      try {
        const verified = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpId,
          requireUserPresence: true,
          requireUserVerification: true,
          supportedAlgorithmIDs: ALGORITHMS,
        });
        if (!verified.verified || !verified.registrationInfo) throw new Error('not verified');
        info = verified.registrationInfo;
      } catch {
        throw refused();
      }
      const { credential } = info;
      const passkey: PasskeyRow = {
        id: newId(),
        user_id: current.user.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ? JSON.stringify(credential.transports) : null,
        name: name ?? 'Passkey',
        created_at: isoAt(clock),
        last_used_at: null,
      };
      const inserted = await tx.get(
        `INSERT INTO passkeys (id, database_id, user_id, credential_id, public_key, counter, transports, name, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (database_id, credential_id) DO NOTHING RETURNING id`,
        [
          passkey.id,
          databaseId,
          passkey.user_id,
          passkey.credential_id,
          passkey.public_key,
          passkey.counter,
          passkey.transports,
          passkey.name,
          passkey.created_at,
        ],
      );
      if (!inserted) throw refused(); // this credential is registered already
      return passkey;
    });
    this.d.guard.notify(databaseId, current.user.email, `A passkey (${row.name})`);
    return toPasskey(row);
  }

  /** Options for a discoverable sign-in (no user named: the authenticator offers its passkeys for the rpId). */
  async signInOptions(databaseId: string): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const { store, clock } = this.d;
    const rp = await relyingParty(store, databaseId);
    const options = await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'required', allowCredentials: [] });
    const { id, challenge } = await newChallenge(store, clock, databaseId, null);
    return { challengeId: id, options: { ...options, challenge } };
  }

  /** A complete sign-in with a passkey; any failure (a disabled user included) → 401 `invalid_credentials`. */
  async signIn(databaseId: string, challengeId: string, response: AuthenticationResponseJSON): Promise<{ user: User; session: Session }> {
    const { store, clock, sessions } = this.d;
    // Used up first, on its own: a failed attempt has spent it too.
    const challenge = await takeSignInChallenge(store, clock, databaseId, challengeId);
    if (!challenge) throw refused();
    const rp = await relyingParty(store, databaseId).catch(() => Promise.reject(refused())); // gone since the options: a failure like any other
    return store.transaction(async (tx) => {
      const passkey = await tx.get<PasskeyRow>('SELECT * FROM passkeys WHERE database_id = ? AND credential_id = ?', [databaseId, String(response?.id)]);
      if (!passkey) throw refused();
      let newCounter: number;
      try {
        const handle = response.response?.userHandle;
        if (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.user_id) throw new Error('userHandle');
        if (clientData(response).challenge !== challenge) throw new Error('challenge');
        const verified = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpId,
          requireUserVerification: true,
          credential: {
            id: passkey.credential_id,
            publicKey: Buffer.from(passkey.public_key, 'base64url'),
            counter: Number(passkey.counter),
            transports: transportsOf(passkey),
          },
        });
        if (!verified.verified) throw new Error('not verified');
        newCounter = verified.authenticationInfo.newCounter;
      } catch {
        throw refused();
      }
      // The counter only grows (a cloned authenticator falls behind); checked again in the UPDATE
      // itself, so two sign-ins with one assertion cannot both pass.
      const moved = await tx.run('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND (counter < ? OR (counter = 0 AND ? = 0))', [
        newCounter,
        isoAt(clock),
        passkey.id,
        newCounter,
        newCounter,
      ]);
      if (moved === 0) throw refused();
      const user = await tx.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [passkey.user_id]);
      if (!user) throw refused();
      // A disabled user gets no session (Sessions.create refuses with 401 invalid_credentials).
      return { user: toUser(user), session: await sessions.create(tx, databaseId, user.id) };
    });
  }

  async list(current: Current): Promise<Passkey[]> {
    const rows = await this.d.store.all<PasskeyRow>('SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at, id', [current.user.id]);
    return rows.map(toPasskey);
  }

  async remove(current: Current, id: string): Promise<void> {
    const n = await this.d.store.run('DELETE FROM passkeys WHERE id = ? AND user_id = ?', [id, current.user.id]);
    if (n === 0) throw notFound(`Passkey '${id}' not found`);
  }
}

const transportsOf = (p: Pick<PasskeyRow, 'transports'>): AuthenticatorTransport[] | undefined =>
  p.transports ? (JSON.parse(p.transports) as AuthenticatorTransport[]) : undefined;
