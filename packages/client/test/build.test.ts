// The built package: what `import '@svc/client'` resolves to, and that nothing Node-only is on its path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

test('the package resolves to the ESM build with declarations', async () => {
  const sdk = await import('@svc/client');
  assert.equal(typeof sdk.createClient, 'function');
  assert.equal(typeof sdk.verifyWebhook, 'function');
  assert.equal(typeof sdk.SvcError, 'function');
  const names = readdirSync(DIST);
  assert.ok(names.includes('index.js') && names.includes('index.d.ts'));
  assert.match(readFileSync(new URL('index.d.ts', `file://${DIST}`), 'utf8'), /createClient/);
});

test('no Node-only import in the build (ws is only ever a dynamic import behind a variable; the passkeys peer is a literal one)', () => {
  for (const name of readdirSync(DIST).filter((n) => n.endsWith('.js'))) {
    const js = readFileSync(DIST + name, 'utf8');
    const imports = [...js.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    for (const spec of imports) assert.ok(spec.startsWith('./'), `${name} imports ${spec}`);
    // The one literal dynamic import is the optional browser peer of passkeys.ts: bundlers must see
    // it to put @simplewebauthn/browser in a chunk of its own, loaded when a passkey is used.
    const rest = js.replace("import('@simplewebauthn/browser')", '');
    assert.doesNotMatch(rest, /\brequire\(|import\(\s*['"]/, `${name}: no require() and no literal dynamic import`);
  }
});
