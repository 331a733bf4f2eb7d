import { getDatabase } from '../../databases/databases.ts';
import { ApiError } from '../../errors.ts';
import type { Store } from '../../store/store.ts';

/** Who the passkeys of a database are for (WebAuthn's relying party). */
export interface RelyingParty {
  rpId: string;
  rpName: string;
  origins: string[];
}

/**
 * The relying party of a database (API.md §2.2): `settings.auth.passkeys`, each part defaulting
 * to the `siteUrl` setting (rpId its host, origins its origin) and the name to the database's.
 * Without an rpId or origins to check against, passkeys cannot work: 400 `validation_failed`.
 */
export async function relyingParty(store: Store, databaseId: string): Promise<RelyingParty> {
  const db = await getDatabase(store, databaseId);
  const conf = db.settings.auth.passkeys ?? {};
  const site = db.settings.siteUrl ? new URL(db.settings.siteUrl) : undefined;
  const rpId = conf.rpId ?? site?.hostname;
  const origins = conf.origins ?? (site ? [site.origin] : []);
  if (!rpId || origins.length === 0) {
    throw new ApiError('validation_failed', 'Passkeys need a relying party: set settings.auth.passkeys {rpId, origins} or settings.siteUrl', [
      { path: '/settings/auth/passkeys', message: 'is not set, and neither is siteUrl' },
    ]);
  }
  return { rpId, rpName: conf.rpName ?? db.name, origins };
}
