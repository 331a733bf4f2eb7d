/**
 * What a store keeps of the statements it ran, by SQL text: bounded in bytes of text as well as in
 * count. What SQLite holds for a prepared statement grows with its text (its program for 8 MB of
 * filter SQL was ~4.7 MB), so a count alone let a few long dynamic statements hold hundreds of MB.
 * Longer text is prepared, run and dropped (filters, bulk writes: the hot statements are short).
 * Sizes are in UTF-16 code units, which is bytes for SQL's ASCII.
 */
export const STATEMENT_CACHE = Object.freeze({ max: 2000, maxSize: 8 * 1024 * 1024, maxEntrySize: 256 * 1024 });
