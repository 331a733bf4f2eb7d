// `npm install` on the Node the project names prints no EBADENGINE warning: every package the lock
// file installs accepts the lowest Node of the root's `engines`. A dependency that moves
// to Node 22 fails here, not on a newcomer's first install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = (path: string) => JSON.parse(readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8'));

test("every locked package accepts the lowest Node of the root's engines", () => {
  const range: string = root('package.json').engines.node;
  const lowest = semver.minVersion(range)!.version;
  assert.ok(semver.major(lowest) === 20, `the project names Node 20 (${range})`);
  const lock = root('package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
  const refusing = Object.entries(lock.packages)
    .filter(([, p]) => {
      const node = Array.isArray(p.engines) ? undefined : p.engines?.node;
      return node !== undefined && !semver.satisfies(lowest, node);
    })
    .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`);
  assert.deepEqual(refusing, [], `these would print EBADENGINE on Node ${lowest}`);
});
