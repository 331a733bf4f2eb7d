/**
 * Random documents and filters of the whole §1/§1.1 language, for property tests: the server's
 * (its filter SQL on both stores against this package's matcher) and this package's own. Seeded,
 * so a failure reproduces.
 */

/** How many documents randomDocument numbers (ids `d000`…); operands on `id` pick among a few more. */
export const DOCUMENTS = 160;

/** mulberry32: a tiny seeded PRNG, enough to pick test data (not for anything secret). */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] };
}

const NUMBERS = [-1, -0.5, 0, 1, 2, 2.5, 10, 1e21, 123456.789] as const;
// Code point order differs from UTF-16 order between '\uFFFD'/'\uE000' and '😀'.
const STRINGS = ['', 'a', 'b', 'B', 'ab', 'AB', 'aB%', 'a_b', '10', 'true', 'null', 'é', 'É', 'ſ', 'S', '😀', '\uFFFD', '\uE000', '2', 'd010'] as const;
const SCALARS = [...NUMBERS, ...STRINGS, true, false, null] as const;
const COMPOSITES = [
  {},
  { x: 1 },
  { x: 'a', y: null },
  [],
  ['a'],
  [1, 2],
  [null],
  [{ x: 1 }],
  ['a', 1, null, true, 'AB'],
  [{ x: 1 }, { x: 'a' }, { y: 2 }],
  [{ x: [1, 'a'] }, 3],
  [['a'], 'b'],
  [{ x: { y: 'a' } }, null, 'é'],
] as const;
// `tags.length`: a path never reads a property of an array (nor of a string).
// `tags.x`, `a.x`, `n.x.y`: paths that cross an array of objects (one level).
const PATHS = ['a', 'b', 'n', 'n.x', 'n.y', 'n.x.y', 'tags', 'tags.x', 'tags.length', 'a.length', 'constructor', 'id', 'createdAt', 'missing', 'a.x'] as const;
const OPERATORS = ['=', '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$all', '$size', '$elemMatch', '$prefix', '$icontains'] as const;
const ELEMENT_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$prefix', '$icontains', '$size'] as const;

export type Rand = ReturnType<typeof prng>;
type Json = unknown;

function randomValue(r: Rand): Json {
  return r.next() < 0.75 ? r.pick(SCALARS) : structuredClone(r.pick(COMPOSITES));
}

export function randomDocument(r: Rand, i: number): Record<string, Json> {
  const doc: Record<string, Json> = { id: `d${String(i).padStart(3, '0')}` };
  for (const field of ['a', 'b', 'tags', 'constructor']) if (r.next() < 0.7) doc[field] = randomValue(r);
  const n = r.next();
  if (n < 0.5) {
    const inner: Record<string, Json> = {};
    if (r.next() < 0.7) inner.x = randomValue(r);
    if (r.next() < 0.7) inner.y = randomValue(r);
    doc.n = inner;
  } else if (n < 0.8) {
    doc.n = randomValue(r);
  }
  return doc;
}

function randomOperand(r: Rand, path: string): Json {
  if (path === 'id' && r.next() < 0.6) return `d${String(r.int(DOCUMENTS + 5)).padStart(3, '0')}`;
  return r.pick(SCALARS);
}

/** A string operand for $prefix/$icontains: one of STRINGS, or a piece of one in another case. */
function randomText(r: Rand): string {
  const s = [...r.pick(STRINGS)];
  const piece = s.slice(0, r.int(s.length + 1)).join('');
  return r.next() < 0.3 ? piece.toUpperCase() : piece;
}

/** `$elemMatch`: operators on the element itself, or a filter on an element's fields. */
function randomElementMatch(r: Rand): Json {
  if (r.next() < 0.5) {
    const ops: Record<string, Json> = {};
    for (let k = 0; k < 1 + r.int(2); k++) {
      const o = r.pick(ELEMENT_OPERATORS);
      ops[o] =
        o === '$in' || o === '$nin'
          ? Array.from({ length: 1 + r.int(3) }, () => r.pick(SCALARS))
          : o === '$size'
            ? r.int(3)
            : o === '$prefix' || o === '$icontains'
              ? randomText(r)
              : r.pick(SCALARS);
    }
    return ops;
  }
  return randomFilter(r, 2, ['x', 'y', 'x.y']);
}

function randomCondition(r: Rand, path: string): Json {
  const op = r.pick(OPERATORS);
  if (op === '=') return randomOperand(r, path);
  const operators: Record<string, Json> = {};
  const add = (o: (typeof OPERATORS)[number]) => {
    if (o === '$in' || o === '$nin' || o === '$all') operators[o] = Array.from({ length: r.int(4) }, () => randomOperand(r, path));
    else if (o === '$exists') operators[o] = r.next() < 0.5;
    else if (o === '$size') operators[o] = r.int(4);
    else if (o === '$prefix' || o === '$icontains') operators[o] = randomText(r);
    else if (o === '$elemMatch') operators[o] = randomElementMatch(r);
    else if (o !== '=') operators[o] = randomOperand(r, path);
  };
  add(op);
  if (r.next() < 0.25) add(r.pick(OPERATORS)); // several operators on one field: each must hold
  return operators;
}

export function randomFilter(r: Rand, depth = 0, paths: readonly string[] = PATHS): Record<string, Json> {
  const filter: Record<string, Json> = {};
  const keys = 1 + r.int(2);
  for (let k = 0; k < keys; k++) {
    if (depth < 2 && r.next() < 0.2) {
      filter[r.next() < 0.5 ? '$and' : '$or'] = Array.from({ length: 1 + r.int(3) }, () => randomFilter(r, depth + 1, paths));
    } else {
      const path = r.pick(paths);
      filter[path] = randomCondition(r, path);
    }
  }
  return filter;
}
