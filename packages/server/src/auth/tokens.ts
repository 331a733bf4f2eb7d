import { randomBytes } from 'node:crypto';
import { hashSecret } from '../keys/key-format.ts';
import type { Clock } from '../infra/clock.ts';

/** A new opaque token: 32 random bytes, base64url (43 characters, safe in URLs and headers). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What is stored instead of a token: its SHA-256 (the tokens are random, so a fast hash is right). */
export const tokenHash = (token: string): string => hashSecret(token);

/** `clock` now plus `ms`, as the ISO 8601 text every table stores. */
export const isoAt = (clock: Clock, ms = 0): string => new Date(clock.now() + ms).toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
