import type { CallOptions, Http } from './http.js';
import type { Rules } from './types.js';

/**
 * A database's access rules (API.md §10): what a PUBLIC key may do with documents. Reading and
 * writing them needs a SECRET key: use it on servers and in deploy scripts, never in a browser.
 *
 * @example
 * await admin.rules.set({ todos: { read: { owner: { $auth: 'id' } }, create: { owner: { $auth: 'id' } } } });
 */
export class RulesService {
  constructor(private readonly http: Http) {}

  /** The rules exactly as last written (`{ '*': { read: true } }` when none were ever set). */
  async get(opts?: CallOptions): Promise<Rules> {
    const r = await this.http.send<{ rules: Rules }>({ method: 'GET', path: '/rules', signal: opts?.signal });
    return r.rules;
  }

  /**
   * Replaces the rules whole; they take effect at once. A malformed rule → 400 `invalid_rules`,
   * with `details` naming the path of each bad rule.
   */
  async set(rules: Rules, opts?: CallOptions): Promise<Rules> {
    const r = await this.http.send<{ rules: Rules }>({ method: 'PUT', path: '/rules', body: { rules }, signal: opts?.signal });
    return r.rules;
  }
}
