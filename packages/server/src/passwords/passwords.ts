import { hash, verify, Algorithm } from '@node-rs/argon2';

/** argon2id with OWASP's minimum: 19 MiB, 2 iterations, 1 lane. */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Verifies a password; with no stored hash, verifies against a dummy so the answer takes the same time. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  const ok = await verify(stored ?? (await dummyHash()), password).catch(() => false);
  return ok && stored !== undefined;
}

let dummy: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (dummy ??= hashPassword('svc-dummy-password-for-timing'));
