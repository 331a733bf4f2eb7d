/**
 * The bench's typical document (~170 bytes: a string, a status with 4 values, a number, a list, a
 * nested object), shared by the `foundation` and `scale` scenarios and bench/profile.ts, so their
 * figures describe the same workload.
 */

/** The 4 values of `status` (each ~25 % of the documents). */
export const STATUSES = ['open', 'closed', 'pending', 'archived'];

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same documents. */
export function random(seedValue: number): () => number {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A maker of typical small documents: `make(i)` is the i-th, drawn from `rnd`. */
export function makeDoc(rnd: () => number): (i: number) => Record<string, unknown> {
  return (i) => ({
    title: `Item ${i}: ${Math.floor(rnd() * 1e9).toString(36)}`,
    status: STATUSES[Math.floor(rnd() * STATUSES.length)],
    score: Math.floor(rnd() * 1_000_000),
    tags: ['bench', STATUSES[i % 4]],
    author: { name: `user${i % 500}`, verified: i % 3 === 0 },
  });
}

/** The body of one insert. */
export const oneDocBody = JSON.stringify(makeDoc(random(1))(0));

/** The body of one `POST …/bulk` with `size` documents. */
export function bulkBody(size: number): string {
  const make = makeDoc(random(2));
  return JSON.stringify({ documents: Array.from({ length: size }, (_, i) => make(i)) });
}

/** A random element of `xs`. */
export const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)];

// The peers benchmark's documents (its lib/docs.mjs): the same words, statuses and seeded generator,
// so bulk figures here describe the bulks its users compare (~200 bytes, 5 fields).
const PEER_WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november ' +
  'oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'
).split(' ');
const PEER_STATUSES = ['open', 'closed', 'pending'];
const peerWords = (rand: () => number, n: number) => Array.from({ length: n }, () => PEER_WORDS[Math.floor(rand() * PEER_WORDS.length)]).join(' ');
/** The i-th of the peers' documents, drawn from `rand`. */
export function peerDoc(rand: () => number, i: number): Record<string, unknown> {
  return {
    title: `Note ${i} ${peerWords(rand, 3)}`.slice(0, 40),
    body: peerWords(rand, 14).slice(0, 90),
    status: PEER_STATUSES[Math.floor(rand() * PEER_STATUSES.length)],
    score: Math.floor(rand() * 100000),
    tags: [PEER_WORDS[Math.floor(rand() * PEER_WORDS.length)], PEER_WORDS[Math.floor(rand() * PEER_WORDS.length)]],
  };
}

/** `count` bodies of `POST …/bulk` with `perRequest` of the peers' documents each, in the order requests send them. */
export function peerBulkBodies(count: number, perRequest: number): string[] {
  const rand = random(3);
  return Array.from({ length: count }, (_, b) =>
    JSON.stringify({ documents: Array.from({ length: perRequest }, (_, i) => peerDoc(rand, b * perRequest + i)) }),
  );
}
