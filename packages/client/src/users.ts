import type { CallOptions, Http } from './http.js';
import type { AdminUpdateUserParams, ManagedUser, User, UserList, UserListParams } from './types.js';

/**
 * The app's users, managed from its backend (API.md §2.1): list, read, change (`appMetadata`,
 * `disabled`, `emailVerified`, `name`, `avatar`) and delete. Needs a SECRET key (a public key gets
 * 403 `read_only_key`): use it on servers only, never in a browser.
 *
 * @example
 * const { users, total } = await admin.users.list({ email: 'ann@' });
 * await admin.users.update(users[0].id, { appMetadata: { role: 'editor' } });
 */
export class UsersService {
  constructor(private readonly http: Http) {}

  /** A page of users, oldest first (`limit` default 20, `offset`), with the `total`; `email` keeps those whose e-mail starts with it. */
  list(params: UserListParams = {}, opts?: CallOptions): Promise<UserList> {
    return this.http.send({ method: 'GET', path: '/auth/users', query: { ...params }, signal: opts?.signal });
  }

  /** One user; 404 `not_found` when the database has none with this id. */
  async get(id: string, opts?: CallOptions): Promise<ManagedUser> {
    const r = await this.http.send<{ user: ManagedUser }>({ method: 'GET', path: this.path(id), signal: opts?.signal });
    return r.user;
  }

  /**
   * Changes the given fields. `appMetadata` replaces the stored object whole (at most 16 KiB as
   * JSON); rules read it as `{ $auth: 'appMetadata.<path>' }`. `disabled: true` ends every session
   * of the user at once, closes their realtime sockets and refuses their sign-in.
   */
  async update(id: string, params: AdminUpdateUserParams, opts?: CallOptions): Promise<User> {
    const r = await this.http.send<{ user: User }>({ method: 'PATCH', path: this.path(id), body: params, signal: opts?.signal });
    return r.user;
  }

  /** Deletes the user, their sessions, realtime tokens and linked sign-in providers; their documents stay. */
  async delete(id: string, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: this.path(id), signal: opts?.signal });
  }

  /**
   * Removes every second factor, recovery code and passkey of the user and ends their sessions (a
   * support desk recovering an account whose owner lost their phone): check who asks first.
   */
  async resetMfa(id: string, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `${this.path(id)}/mfa`, signal: opts?.signal });
  }

  private path(id: string): string {
    return `/auth/users/${encodeURIComponent(id)}`;
  }
}
