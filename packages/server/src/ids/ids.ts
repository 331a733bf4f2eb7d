import { v7 } from 'uuid';

/** A new id, sortable by creation time (UUIDv7, monotonic within a process). */
export const newId = (): string => v7();

/** Now as the API writes timestamps: ISO 8601 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();
