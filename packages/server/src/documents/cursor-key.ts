import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.ts';

const NAME = 'list-cursors';

/**
 * The secret that keys list cursors' HMAC (cursor.ts): 32 random bytes kept in the store
 * (migration 15), made by the first instance that asks, so every instance of a deployment signs
 * and reads the same cursors. Inserted only if absent: instances starting together keep the
 * first one written, and all read that one back.
 */
export function cursorSecret(store: Store): Promise<string> {
  return serverSecret(store, NAME);
}

/** The deployment's secret called `name` (server_secrets), made at random by the first instance that asks. */
export async function serverSecret(store: Store, name: string): Promise<string> {
  const read = () => store.get<{ secret: string }>('SELECT secret FROM server_secrets WHERE name = ?', [name]);
  const known = await read();
  if (known) return known.secret;
  await store.run('INSERT INTO server_secrets (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
    new Date().toISOString(),
  ]);
  const made = await read();
  if (!made) throw new Error(`the server secret ${name} was not kept`);
  return made.secret;
}
