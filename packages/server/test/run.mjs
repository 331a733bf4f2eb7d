// Runs every test file of the server with node's test runner (tsx for TypeScript).
// Usage: node test/run.mjs [file-or-folder ...]   (default: every *.test.ts under test/)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const collect = (p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .sort()
        .flatMap((e) => (e === 'node_modules' || e === 'helpers' ? [] : collect(join(p, e))))
    : /\.test\.ts$/.test(p)
      ? [p]
      : [];
const args = process.argv.slice(2);
const files = (args.length ? args.map((a) => resolve(a)) : [here]).flatMap(collect);
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`, ...files],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
