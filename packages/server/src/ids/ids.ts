import { randomFillSync } from 'node:crypto';

/**
 * A new id, sortable by creation time: a UUIDv7 (RFC 9562), monotonic within a process. As the
 * `uuid` package's v7 (which this replaced): 48 bits of Unix milliseconds, then a 32-bit counter
 * that starts at a random value in each new millisecond and counts up within one (past 2^32 the
 * millisecond moves on), then 42 random bits. Written here because a bulk of 100 documents spent
 * ~4 % of its time in that package's two 16-byte arrays per id and its 256-byte random refills
 * (the bulk profile in BENCHMARKS.md): this draws from a 4 KiB pool and writes the text straight from a table.
 */
export function newId(): string {
  const now = Date.now();
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = randomUint32();
  } else {
    state.seq = (state.seq + 1) >>> 0;
    if (state.seq === 0) state.msecs++;
  }
  const { msecs, seq } = state;
  const r = take(6);
  const b0 = Math.floor(msecs / 0x10000000000) & 0xff;
  const b1 = Math.floor(msecs / 0x100000000) & 0xff;
  const b2 = Math.floor(msecs / 0x1000000) & 0xff;
  const b3 = Math.floor(msecs / 0x10000) & 0xff;
  const b4 = Math.floor(msecs / 0x100) & 0xff;
  const b5 = msecs & 0xff;
  const b6 = 0x70 | ((seq >>> 28) & 0x0f);
  const b7 = (seq >>> 20) & 0xff;
  const b8 = 0x80 | ((seq >>> 14) & 0x3f);
  const b9 = (seq >>> 6) & 0xff;
  const b10 = ((seq << 2) & 0xff) | (pool[r] & 0x03);
  return (
    HEX[b0] +
    HEX[b1] +
    HEX[b2] +
    HEX[b3] +
    '-' +
    HEX[b4] +
    HEX[b5] +
    '-' +
    HEX[b6] +
    HEX[b7] +
    '-' +
    HEX[b8] +
    HEX[b9] +
    '-' +
    HEX[b10] +
    HEX[pool[r + 1]] +
    HEX[pool[r + 2]] +
    HEX[pool[r + 3]] +
    HEX[pool[r + 4]] +
    HEX[pool[r + 5]]
  );
}

/** Now as the API writes timestamps: ISO 8601 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();

const state = { msecs: -1, seq: 0 };
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const pool = new Uint8Array(4096);
let used = pool.length;

/** The offset of `n` fresh random bytes in `pool`, refilled when they run out. */
function take(n: number): number {
  if (used + n > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const at = used;
  used += n;
  return at;
}

function randomUint32(): number {
  const r = take(4);
  return ((pool[r] << 24) | (pool[r + 1] << 16) | (pool[r + 2] << 8) | pool[r + 3]) >>> 0;
}
