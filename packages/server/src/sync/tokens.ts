import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { isDocumentId } from '../documents/names.ts';
import type { Store } from '../store/store.ts';
import { serverSecret } from '../documents/cursor-key.ts';

/**
 * Sync checkpoints and snapshot cursors (API.md §3.1): `base64url(JSON body) "." base64url(HMAC)`.
 * The body names what the token is bound to (a hash of database, collection, filter and caller), so
 * a token used for another of them is refused; the HMAC, keyed by a secret kept in the store
 * (server_secrets, as list cursors' key: documents/cursor-key.ts), makes it tamper-proof on every instance of the store.
 *
 * A checkpoint carries `origin` (the event id the catch-up began from: "in view at the checkpoint"
 * is judged there), `pos` (the last event already answered; equal to origin unless an answer was
 * cut by `limit`) and `view` (a hash of the read rule and its resolved filter for the caller: a
 * change of either resets). A cursor carries the snapshot's checkpoint fields and the last id of its page.
 */
interface Checkpoint {
  origin: bigint;
  pos: bigint;
  view: string;
}

interface SnapshotCursor {
  origin: bigint;
  view: string;
  afterId: string;
}

const VERSION = 1;
const MAC_BYTES = 16;
const DECIMAL = /^(0|[1-9]\d{0,19})$/;

const invalid = (what: string, why: string) =>
  new ApiError('invalid_cursor', `The ${what} ${why}; use the checkpoint or nextCursor of a sync answer as is, with the same collection, filter and caller`);

export class SyncTokens {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly store: Store) {}

  /** Reads (or makes) the key now: at start, so that no sync request has to write it (a SQLite lock would answer 503). */
  async ready(): Promise<void> {
    this.key ??= this.loadKey();
    await this.key;
  }

  /** A short hash of what a token is bound to. */
  static binding(parts: string[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
  }

  async checkpoint(binding: string, c: Checkpoint): Promise<string> {
    return this.sign([VERSION, 'c', binding, String(c.origin), String(c.pos), c.view]);
  }

  async cursor(binding: string, c: SnapshotCursor): Promise<string> {
    return this.sign([VERSION, 's', binding, String(c.origin), c.view, c.afterId]);
  }

  async readCheckpoint(token: string, binding: string): Promise<Checkpoint> {
    const [, , origin, pos, view] = await this.open(token, 'checkpoint', 'c', binding);
    if (!DECIMAL.test(origin) || !DECIMAL.test(pos) || BigInt(pos) < BigInt(origin)) throw invalid('checkpoint', 'is malformed');
    return { origin: BigInt(origin), pos: BigInt(pos), view };
  }

  async readCursor(token: string, binding: string): Promise<SnapshotCursor> {
    const [, , origin, view, afterId] = await this.open(token, 'cursor', 's', binding);
    if (!DECIMAL.test(origin) || !isDocumentId(afterId)) throw invalid('cursor', 'is malformed');
    return { origin: BigInt(origin), view, afterId };
  }

  private async sign(body: unknown[]): Promise<string> {
    const text = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${text}.${(await this.mac(text)).toString('base64url')}`;
  }

  /** The fields after the version of a token of `kind`, checked for integrity and binding. */
  private async open(token: string, what: string, kind: string, binding: string): Promise<string[]> {
    const [body, mac, ...rest] = token.split('.');
    if (rest.length || !body || !mac || !/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(mac)) throw invalid(what, 'is malformed');
    const expected = await this.mac(body);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid(what, 'was altered or was not issued by this service');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid(what, 'is malformed');
    }
    if (!Array.isArray(decoded) || decoded[0] !== VERSION || decoded[1] !== kind || !decoded.every((x, i) => i === 0 || typeof x === 'string')) {
      throw invalid(what, `is not a ${what}`);
    }
    if (decoded[2] !== binding) throw invalid(what, 'belongs to another collection, filter, database or user');
    return (decoded as string[]).slice(1);
  }

  private async mac(body: string): Promise<Buffer> {
    this.key ??= this.loadKey();
    return createHmac('sha256', await this.key)
      .update(body)
      .digest()
      .subarray(0, MAC_BYTES);
  }

  private async loadKey(): Promise<Buffer> {
    try {
      return createHash('sha256')
        .update('svc sync token key\u0000')
        .update(await serverSecret(this.store, 'sync-checkpoints'))
        .digest();
    } catch (e) {
      this.key = undefined; // asked again next time (a store briefly unreachable)
      throw e;
    }
  }
}
