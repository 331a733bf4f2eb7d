import type { Migration } from './migration.ts';
import { migration as m0001 } from './0001-foundation.ts';
import { migration as m0002 } from './0002-end-user-accounts.ts';
import { migration as m0003 } from './0003-webhooks.ts';
import { migration as m0004 } from './0004-realtime-tokens.ts';
import { migration as m0005 } from './0005-realtime-token-sources.ts';
import { migration as m0006 } from './0006-automatic-index-budgets.ts';
import { migration as m0007 } from './0007-invalidation-triggers.ts';
import { migration as m0008 } from './0008-user-app-metadata-and-disabled.ts';
import { migration as m0009 } from './0009-public-keys-kept.ts';
import { migration as m0010 } from './0010-full-text-search.ts';
import { migration as m0011 } from './0011-settings-invalidation.ts';
import { migration as m0012 } from './0012-identity-issuer.ts';
import { migration as m0013 } from './0013-safe-writes.ts';
import { migration as m0014 } from './0014-second-factors-and-passkeys.ts';
import { migration as m0015 } from './0015-server-secrets.ts';
import { migration as m0016 } from './0016-files.ts';
import { migration as m0017 } from './0017-thumbnail-claims.ts';
import { migration as m0018 } from './0018-document-rows-without-foreign-keys.ts';
import { migration as m0019 } from './0019-idempotency-keys-lean.ts';
import { migration as m0020 } from './0020-idempotency-keys-by-claimed-brin.ts';
import { migration as m0021 } from './0021-idempotency-keys-indexed-in-memory.ts';

export type { Migration } from './migration.ts';

/**
 * Every migration, in order: one file each (migration.ts says how to add one). The list is
 * explicit rather than a directory scan, so a bundle or a type check sees every migration;
 * test/store/migrations.test.ts checks that it names every file, in order, without gaps.
 */
export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
];
