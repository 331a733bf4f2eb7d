import { request, type Response } from './server.ts';

/** A user and session as the §2 routes answer them. */
export interface SignedIn {
  user: {
    id: string;
    email: string;
    name: string | null;
    avatar: string | null;
    emailVerified: boolean;
    appMetadata: Record<string, unknown>;
    disabled: boolean;
    createdAt: string;
    updatedAt: string;
  };
  session: { token: string; expiresAt: string };
}

type Server = { base: string; url: string };

/** Small wrappers over the /auth routes, for tests. */
export const auth = {
  signUp: (s: Server, key: string, body: Record<string, unknown>) => request(s, 'POST', '/auth/sign-up', { key, body }),
  signIn: (s: Server, key: string, email: string, password: string) => request(s, 'POST', '/auth/sign-in', { key, body: { email, password } }),
  me: (s: Server, key: string, token: string) => request(s, 'GET', '/auth/me', { key, headers: { 'x-session-token': token } }),
  /** A POST with a session token and an optional body. */
  post: (s: Server, key: string, path: string, token: string | undefined, body?: unknown) =>
    request(s, 'POST', path, { key, body, headers: token ? { 'x-session-token': token } : {} }),
};

/** Signs a new user up and returns the answer's body (asserting 201). */
export async function newUser(s: Server, key: string, email: string, password = 'correct horse battery'): Promise<SignedIn> {
  const r: Response = await auth.signUp(s, key, { email, password });
  if (r.status !== 201) throw new Error(`sign-up of ${email} answered ${r.status}: ${r.text}`);
  return r.json as SignedIn;
}

/** Request options that carry a session token: `api.get('/auth/me', 200, withSession(token))`. */
export const withSession = (token: string): { headers: Record<string, string> } => ({ headers: { 'x-session-token': token } });
