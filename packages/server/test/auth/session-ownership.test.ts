// Who owns what around sessions (ownership where it belongs): the source is read, not a
// server started, so a copy creeping back in fails here rather than drifting apart unnoticed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

test('one function reads X-Session-Token from a request: auth/request-session.ts', () => {
  const readers = files.filter((f) => /headers\s*\[\s*['"]x-session-token['"]\s*\]|headers\s*\[\s*SESSION_TOKEN_HEADER\s*\]/i.test(f.text));
  assert.deepEqual(
    readers.map((f) => f.path),
    ['auth/request-session.ts'],
  );
});

test("realtime resolves sessions through auth's Sessions: nobody else builds one", () => {
  const builders = files.filter((f) => /new Sessions\(/.test(f.text)).map((f) => f.path);
  assert.deepEqual(builders, ['auth/auth.ts']);
});

test('http/ imports nothing from admin/ (operator sessions resolve in keys/)', () => {
  const upward = files.filter((f) => f.path.startsWith('http/') && /from '\.\.\/admin\//.test(f.text)).map((f) => f.path);
  assert.deepEqual(upward, []);
});
