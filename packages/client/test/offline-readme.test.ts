import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sdk from '../dist/index.js';
import { runSnippet } from './readme-snippets.ts';
import { fixture, type Fixture } from './helpers.ts';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** The code block of the repository README's "Offline-first" section. */
function offlineSnippet(): string {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n## Offline-first\n');
  assert.ok(start >= 0, 'README has an "Offline-first" section');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  assert.ok(section.split('\n').length <= 26, 'at most 25 lines');
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)][0][1];
}

/** Issue 28, item 4: the README's Offline-first example works when pasted (Node, built SDK). */
let f: Fixture;
let dir: string;
const cwd = process.cwd();
before(async () => {
  f = await fixture();
  dir = mkdtempSync(join(tmpdir(), 'svc-readme-offline-'));
  process.chdir(dir);
});
after(async () => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
  await f.close();
});

test('README "Offline-first": the snippet runs as written and leaves its copy in todos.json', async () => {
  const lines: unknown[][] = [];
  const console = { log: (...a: unknown[]) => lines.push(a) };
  await runSnippet(offlineSnippet(), sdk, { console, process: { env: { SVC_URL: f.server.url, SVC_KEY: f.secretKey } } }, []);
  const server = await f.admin().collection('todos').list();
  assert.deepEqual(
    server.documents.map((d) => [d.title, d.done]),
    [['written offline or not', true]],
  );
  const printed = lines.at(-1)?.[0] as Array<{ title: string }>;
  assert.deepEqual(
    printed.map((d) => d.title),
    ['written offline or not'],
  );
  assert.ok(existsSync(join(dir, 'todos.json')));
});
