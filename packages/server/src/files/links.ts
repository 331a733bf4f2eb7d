import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.ts';
import type { Store } from '../store/store.ts';

/**
 * Signed links (API.md §12): a token bound to the database, bucket, file, thumbnail and download
 * flag, with its expiry, signed by a per-database key kept in the store (`file_keys`), so every
 * instance accepts it and rotating the key kills every link at once. The key is read on each use
 * (one indexed row) rather than cached: a rotation must take effect everywhere immediately.
 */
interface LinkClaims {
  databaseId: string;
  bucket: string;
  fileId: string;
  thumb: string | null;
  download: boolean;
  /** Expiry, seconds since the epoch. */
  expires: number;
}

const invalidToken = () => new ApiError('invalid_token', 'The link is wrong or expired: ask for a new one');

export class Links {
  constructor(private readonly store: Store) {}

  /** The database's signing key, made on first use. */
  private async key(databaseId: string, create: boolean): Promise<Buffer | undefined> {
    const read = async () => (await this.store.get<{ secret: string }>('SELECT secret FROM file_keys WHERE database_id = ?', [databaseId]))?.secret;
    let secret = await read();
    if (secret === undefined && create) {
      await this.store.run('INSERT INTO file_keys (database_id, secret) VALUES (?, ?) ON CONFLICT (database_id) DO NOTHING', [
        databaseId,
        randomBytes(32).toString('base64url'),
      ]);
      secret = await read();
    }
    return secret === undefined ? undefined : Buffer.from(secret, 'base64url');
  }

  async sign(claims: LinkClaims): Promise<string> {
    const key = await this.key(claims.databaseId, true);
    const body = Buffer.from(JSON.stringify([claims.databaseId, claims.bucket, claims.fileId, claims.thumb, claims.download ? 1 : 0, claims.expires])).toString(
      'base64url',
    );
    return `${body}.${mac(key!, body)}`;
  }

  /** The claims of a valid, unexpired token; 401 `invalid_token` otherwise. */
  async verify(token: string, nowSeconds: number): Promise<LinkClaims> {
    const [body, sig, ...rest] = token.split('.');
    if (rest.length || !body || !sig || !/^[A-Za-z0-9_-]+$/.test(body)) throw invalidToken();
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidToken();
    }
    if (!Array.isArray(parts) || parts.length !== 6 || typeof parts[0] !== 'string') throw invalidToken();
    const key = await this.key(parts[0], false);
    if (!key) throw invalidToken();
    const expected = Buffer.from(mac(key, body));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidToken();
    const [databaseId, bucket, fileId, thumb, download, expires] = parts as [string, string, string, string | null, number, number];
    if (expires <= nowSeconds) throw invalidToken();
    return { databaseId, bucket, fileId, thumb, download: download === 1, expires };
  }

  /** A new key for the database: every link signed before stops working. */
  async rotate(databaseId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.run('DELETE FROM file_keys WHERE database_id = ?', [databaseId]);
      await tx.run('INSERT INTO file_keys (database_id, secret) VALUES (?, ?)', [databaseId, randomBytes(32).toString('base64url')]);
    });
  }
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');
