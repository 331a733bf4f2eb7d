/**
 * A column value as it travels between stores: text (JSON columns too, as their JSON text), a
 * number (integers beyond 2^53 as their decimal text, so no JSON reader rounds them), or null.
 * Booleans are 0/1 on both engines.
 */
export type PortableValue = string | number | null;

/** A row with portable values, by column name. */
export type PortableRow = Record<string, PortableValue>;

/** An integer from a driver as a portable value: a number while exact, else its decimal text. */
export function portableInteger(n: bigint | string): number | string {
  const big = typeof n === 'bigint' ? n : BigInt(n);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}
