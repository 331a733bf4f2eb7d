/**
 * Binds an OAuth `state` to the browser that started the flow (API.md §2): `/auth/oauth/:provider`
 * sets a cookie holding the state, and a callback counts only when the browser sends it back.
 * Without it, someone could start a flow in their own browser and hand the callback URL (with
 * their code and state) to a victim, who would end up signed into the attacker's account (login
 * CSRF). The cookie is the usual double-submit: its value is the state itself, which only the
 * browser that started the flow holds as a cookie (nobody else can set one for this site).
 *
 * One cookie per flow: the name carries a digest of the state, so sign-ins started in two tabs
 * don't overwrite each other. HttpOnly, `SameSite=Lax` (sent on the provider's top-level redirect
 * back), alive as long as the state (10 minutes), on the OAuth paths only, `Secure` on https.
 */

import { parse, serialize } from 'cookie';
import { sameSecret } from '../../keys/key-format.ts';
import { tokenHash } from '../tokens.ts';
import { STATE_LIFETIME_MS } from './state.ts';

const LIFETIME_SECONDS = STATE_LIFETIME_MS / 1000;
const PATH = '/v1/auth/oauth/';

const cookieName = (state: string): string => `svc_oauth_${tokenHash(state).slice(0, 16)}`;

/** The Set-Cookie header value that binds `state` to this browser. */
export function bindingCookie(state: string, secure: boolean): string {
  return serialize(cookieName(state), state, { httpOnly: true, sameSite: 'lax', maxAge: LIFETIME_SECONDS, path: PATH, secure });
}

/** The Set-Cookie header value that forgets the binding once the state is used up. */
export function clearedBindingCookie(state: string, secure: boolean): string {
  return serialize(cookieName(state), '', { httpOnly: true, sameSite: 'lax', maxAge: 0, path: PATH, secure });
}

/** Whether the request's Cookie header binds `state` to this browser (compared in constant time). */
export function isBound(cookieHeader: string | undefined, state: string): boolean {
  const value = cookieHeader ? parse(cookieHeader)[cookieName(state)] : undefined;
  if (value === undefined) return false;
  return sameSecret(value, state);
}
