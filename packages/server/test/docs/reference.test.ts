// The docs in the repository are complete and reachable from a clone: docs/api.md lists every
// route (its route index is generated from the OpenAPI document and must be current), every error
// code and every setting; .env.example names every setting; and every relative link in the README
// files and docs/ resolves to a file in the repository (none points outside it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS } from '../../src/errors.ts';
import { API_MD, openApiPaths, routesBlock, withRoutes } from '../../scripts/api-routes.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Every variable config.ts reads from the environment. */
function settings(): string[] {
  const source = read('packages/server/src/config.ts');
  const names = new Set([...source.matchAll(/env(?:\.|, ')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));
  assert.ok(names.size > 40 && names.has('DATABASE_URL') && names.has('WEBHOOK_ALLOW_PRIVATE_URLS'), 'the settings were found');
  return [...names].sort();
}

test('docs/api.md: its route index is what the OpenAPI document says today', async () => {
  const current = readFileSync(API_MD, 'utf8');
  const paths = await openApiPaths();
  const fresh = withRoutes(current, routesBlock(paths));
  assert.ok(fresh === current, 'docs/api.md is stale: run `node --import tsx packages/server/scripts/api-routes.ts` and commit docs/api.md');
  for (const [path, ops] of Object.entries(paths)) {
    for (const method of Object.keys(ops)) assert.ok(current.includes(`| ${method.toUpperCase()} | \`${path}\` |`), `${method} ${path} is listed`);
  }
});

test('docs/api.md names every error code and every setting; .env.example names every setting with its default commented out', () => {
  const api = read('docs/api.md');
  for (const code of Object.keys(ERROR_STATUS)) assert.ok(api.includes(`\`${code}\``), `error code ${code} is in docs/api.md`);
  const env = read('.env.example');
  for (const name of settings()) {
    assert.ok(api.includes(`\`${name}\``), `${name} is in docs/api.md`);
    assert.match(env, new RegExp(`^# ${name}=`, 'm'), `${name} is in .env.example, commented out`);
  }
  assert.doesNotMatch(env, /^[A-Z]/m, '.env.example sets nothing: copying it to .env changes no default');
});

/** README.md, packages/*\/README.md and docs/*.md. */
function markdownFiles(): string[] {
  const packages = readdirSync(join(ROOT, 'packages')).map((p) => `packages/${p}/README.md`);
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'bench/README.md', ...packages, ...docs].filter((f) => existsSync(join(ROOT, f)));
}

test('README files and docs/ link only files that exist in a clone, and cite nothing outside it', () => {
  for (const file of markdownFiles()) {
    const text = read(file).replace(/```[\s\S]*?```/g, ''); // links only, not code
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue; // a URL or an anchor in the file
      const path = decodeURIComponent(target.split('#')[0]);
      if (path.startsWith('/')) continue; // a path on a running server (/docs), not a file
      const resolved = join(ROOT, dirname(file), path);
      assert.ok(relative(ROOT, resolved).split('/')[0] !== '..', `${file} links ${target}, outside the repository`);
      assert.ok(existsSync(resolved), `${file} links ${target}, which does not exist`);
    }
    for (const outside of ['API.md', 'SPEC.md', '../shared'])
      assert.ok(!read(file).includes(outside), `${file} mentions ${outside}, which is not in the repository`);
  }
});
