/**
 * Strings as both stores see them: code point order, storable text, field paths, and the case
 * folding of `$icontains` (API.md §1.1).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point of this pattern.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string can be stored (and so compared) by every store: no NUL, no unpaired surrogate. */
export function isStorableString(s: string): boolean {
  return !UNSTORABLE.test(s);
}

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits a field path (`author.name`) into validated segments, or undefined when malformed. */
export function parseFieldPath(path: string): string[] | undefined {
  if (path.length > 256) return undefined;
  const segments = path.split('.');
  return segments.length <= 16 && segments.every((s) => SEGMENT.test(s)) ? segments : undefined;
}

/**
 * Orders two strings by code point, as SQLite (bytes of UTF-8) and PostgreSQL (COLLATE "C") do.
 * JavaScript's `<` compares UTF-16 units, which puts U+E000..U+FFFF after the surrogates of
 * U+10000 and above; shifting the units at the first difference restores code point order
 * (the fix-up ICU's u_strCompare uses). Stored strings hold no unpaired surrogates.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixUp(x) - fixUp(y);
  }
  return a.length - b.length;
}
const fixUp = (u: number) => (u >= 0xd800 ? (u >= 0xe000 ? u - 0x800 : u + 0x2000) : u);

/**
 * The smallest string above every string starting with `p` (code point order, as both stores
 * compare): `p` with its last code point raised by one, after dropping trailing U+10FFFF; none
 * when `p` is only U+10FFFF. So `$prefix` is a range a field's index serves, exactly.
 */
export function prefixUpperBound(p: string): string | undefined {
  const cps = [...p];
  while (cps.length && cps[cps.length - 1] === '\u{10FFFF}') cps.pop();
  if (!cps.length) return undefined;
  let last = cps.pop()!.codePointAt(0)! + 1;
  if (last === 0xd800) last = 0xe000; // no surrogates in stored strings
  return cps.join('') + String.fromCodePoint(last);
}

/**
 * Case folding for `$icontains` (API.md §1.1): each code point goes to the lowercase of its
 * uppercase, both by Unicode's simple (one code point to one) mappings. That is what PostgreSQL's
 * `lower(upper(x))` does per character under a UTF-8 libc locale (towupper/towlower), and it puts
 * the case variants Unicode folds together in one class: `ſ`, `s` and `S`; `ς`, `σ` and `Σ`;
 * `µ` and `μ`; the Kelvin sign and `k`. JavaScript has only the full mappings, so where a full
 * mapping is longer than one code point (`ß` → `SS`, `İ` → `i̇`) the simple one is taken: the code
 * point itself for uppercasing, the first code point for lowercasing (only `İ` → `i`).
 *
 * The server's SQLite runs this very function (registered as `svc_casefold` on each connection);
 * PostgreSQL uses its own tables, which can differ for code points added to Unicode after the C
 * library's version, and under a Turkish locale (`I` → `ı`).
 */
const folded = new Map<number, string>();
/** A bound on the memo of folded code points (hand-written: this package has no dependencies). */
const FOLDED_MAX = 65_536;

function foldCodePoint(c: string): string {
  const up = c.toUpperCase();
  const simpleUp = up.length === c.length || [...up].length === 1 ? up : c;
  const low = simpleUp.toLowerCase();
  return [...low][0] ?? low;
}

export function casefold(s: string): string {
  let out = '';
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (code < 0x41) {
      out += c;
      continue;
    }
    if (code < 0x80) {
      out += code <= 0x5a ? String.fromCharCode(code + 32) : c;
      continue;
    }
    let f = folded.get(code);
    if (f === undefined) {
      f = foldCodePoint(c);
      if (folded.size < FOLDED_MAX) folded.set(code, f);
    }
    out += f;
  }
  return out;
}
