import crypto, { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { isDocumentId } from './names.ts';

/**
 * Cursors of keyset paging (API.md §1.1). A cursor names the last document of a page by the values
 * of its sort keys (the SQL expressions the list orders by, in order, as the driver returned them)
 * and its id; the next page is the rows after that position, `(k1, …, kn, id) > (v1, …, vn, id)`.
 * Nothing in it depends on what the keys are, so another sort (the rank of a full-text search)
 * plugs in as one more key.
 *
 * Format: `base64url(JSON [version, binding, values, id, from]) "." base64url(HMAC-SHA-256)`. The binding is
 * a hash of the parameters the order depends on (database, collection, sortBy, sortOrder, filter,
 * search) and of its caller (the key's kind and the user a public key acts for), so a cursor used
 * with others, or by someone else, is refused (API.md §1.1, third version). The HMAC makes a
 * cursor tamper-evident; its key is derived from a random secret kept in the store
 * (cursor-key.ts), so any instance takes any instance's cursor. Even a forged cursor could do no harm: its values are bound parameters of a
 * keyset condition ANDed to the same filter and rule, i.e. no more than a filter the caller could
 * write, and each one is checked against the shape the sort expects.
 */

/** A sort-key value as a driver returns it (PostgreSQL gives numerics as text). */
export type KeyValue = string | number | null;

interface CursorPosition {
  values: KeyValue[];
  id: string;
  /**
   * The first key (an index into the values; `values.length` means `id`) at which the row after
   * this position differed when the page was read: the ranges deeper than it were empty then, so
   * the next page need not read them (keyset.ts). Documents inserted since may be missed there,
   * which paging allows; none that existed.
   */
  from: number;
}

const VERSION = 1;
const MAC_BYTES = 16;

const invalid = (message: string) => new ApiError('invalid_cursor', message);

/** One-shot `crypto.hash` where there is one (Node ≥ 20.12), as keys/key-format.ts: every list binds its cursors. Same digest either way. */
const sha256Base64url: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'base64url') : (text) => createHash('sha256').update(text).digest('base64url');

export class CursorCodec {
  private key?: Buffer;
  private loading?: Promise<void>;

  /** `secret`: where the secret every instance of a deployment shares comes from; only a hash of it keys the HMAC. */
  constructor(private readonly secret: () => Promise<string>) {}

  /** Resolves once the key is known (read once; a failed read is tried again by the next list). */
  ready(): Promise<void> {
    this.loading ??= this.secret().then(
      (secret) => {
        this.key = createHash('sha256').update('svc list cursor key\u0000').update(secret).digest();
      },
      (e) => {
        this.loading = undefined;
        throw e;
      },
    );
    return this.loading;
  }

  /** The binding of a list's parameters: a short hash of everything its order depends on. */
  binding(parts: Array<string | undefined>): string {
    return sha256Base64url(JSON.stringify(parts.map((p) => p ?? null))).slice(0, 22);
  }

  encode(binding: string, position: CursorPosition): string {
    const body = Buffer.from(JSON.stringify([VERSION, binding, position.values, position.id, position.from])).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /**
   * The position a cursor holds. Throws 400 `invalid_cursor` when it was altered, belongs to other
   * parameters, or does not have the shape of this sort: `shape[i]` says whether key i may be null.
   */
  decode(cursor: string, binding: string, shape: boolean[]): CursorPosition {
    const [body, mac, ...rest] = cursor.split('.');
    if (rest.length || !body || !mac || !/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(mac)) throw invalid('The cursor is malformed');
    const expected = this.mac(body);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid('The cursor was altered or was not issued by this service; use the nextCursor of a list answer as is');
    }
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid('The cursor is malformed');
    }
    if (!Array.isArray(decoded) || decoded.length !== 5 || decoded[0] !== VERSION) throw invalid('The cursor is of another version');
    const [, bound, values, id, from] = decoded as [number, unknown, unknown, unknown, unknown];
    if (bound !== binding) {
      throw invalid(
        'The cursor belongs to other parameters or another caller: send the same sortBy, sortOrder, filter and search as the list that gave it, with the same key kind and user',
      );
    }
    if (
      typeof id !== 'string' ||
      !isDocumentId(id) ||
      !Array.isArray(values) ||
      values.length !== shape.length ||
      !Number.isInteger(from) ||
      (from as number) < 0 ||
      (from as number) > shape.length ||
      !values.every((v, i) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || (v === null && shape[i]))
    ) {
      throw invalid('The cursor does not fit this sort');
    }
    return { values: values as KeyValue[], id, from: from as number };
  }

  private mac(body: string): Buffer {
    if (!this.key) throw new Error('CursorCodec: ready() first');
    return createHmac('sha256', this.key).update(body).digest().subarray(0, MAC_BYTES);
  }
}
