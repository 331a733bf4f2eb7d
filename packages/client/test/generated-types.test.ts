import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generate, OUTPUT } from '../scripts/generate-types.ts';

/** The first line where two texts differ, with a little context (a full dump would be 200 KB). */
function firstDifference(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  const i = x.findIndex((line, k) => line !== y[k]);
  const at = i === -1 ? x.length : i;
  return `line ${at + 1}:\n  committed: ${JSON.stringify(x[at])}\n  generated: ${JSON.stringify(y[at])}`;
}

test("src/generated/api.ts is what the server's schemas generate today", async () => {
  const fresh = await generate();
  const committed = readFileSync(OUTPUT, 'utf8');
  assert.ok(fresh.includes('"/v1/{collection}/docs"') && fresh.includes('"/v1/realtime/token"'), 'the generator sees the routes');
  if (committed !== fresh) {
    assert.fail(
      `The SDK's API types are stale: run \`npm run generate -w @svc/client\` and commit src/generated/api.ts.\nFirst difference at ${firstDifference(committed, fresh)}`,
    );
  }
});
