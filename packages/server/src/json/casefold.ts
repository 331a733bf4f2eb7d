/**
 * Case folding for `$icontains` (API.md §1.1): each code point goes to the lowercase of its
 * uppercase, both by Unicode's simple (one code point to one) mappings. That is what PostgreSQL's
 * `lower(upper(x))` does per character under a UTF-8 libc locale (towupper/towlower), and it puts
 * the case variants Unicode folds together in one class: `ſ`, `s` and `S`; `ς`, `σ` and `Σ`;
 * `µ` and `μ`; the Kelvin sign and `k`. JavaScript has only the full mappings, so where a full
 * mapping is longer than one code point (`ß` → `SS`, `İ` → `i̇`) the simple one is taken: the code
 * point itself for uppercasing, the first code point for lowercasing (only `İ` → `i`).
 *
 * SQLite runs this very function (registered as `svc_casefold` on each connection), the rules
 * matcher too; PostgreSQL uses its own tables, which can differ for code points added to Unicode
 * after the C library's version, and under a Turkish locale (`I` → `ı`).
 */
const cache = new Map<number, string>();

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
    let f = cache.get(code);
    if (f === undefined) {
      f = foldCodePoint(c);
      if (cache.size < 65_536) cache.set(code, f);
    }
    out += f;
  }
  return out;
}
