// Generates src/generated/api.ts from the server's route schemas, so the SDK's types cannot drift
// from the server: the app is built in-process (not listening) on a throw-away SQLite file, its
// OpenAPI 3.1 document is taken from @fastify/swagger and turned into types by openapi-typescript.
//
// Usage: npm run generate -w @svc/client        (writes the file)
//        node --import tsx scripts/generate-types.ts --stdout   (prints it; the drift test uses this)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
// The script (never the SDK) reads the server's source: that is the single source of truth.
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openStore } from '../../server/src/store/open-store.ts';
import { localLimiter } from '../../server/src/infra/limiter/local.ts';

export const OUTPUT = fileURLToPath(new URL('../src/generated/api.ts', import.meta.url));

const HEADER = `/**
 * Generated from the server's route schemas (GET /v1/openapi.json) by scripts/generate-types.ts.
 * Do not edit: run \`npm run generate -w @svc/client\`. A test fails when this file is stale.
 */
`;

/** The server's OpenAPI document, built in-process with fixed settings so the output is stable. */
export async function serverOpenApi(): Promise<OpenAPI3> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-client-gen-'));
  const store = await openStore(`sqlite:${join(dir, 'svc.db')}`);
  const limiter = localLimiter();
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:8700' });
    const app = await buildApp({ config, store, limiter });
    await app.ready();
    const doc = app.swagger() as unknown as OpenAPI3;
    await app.close();
    return doc;
  } finally {
    await limiter.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The TypeScript source of src/generated/api.ts. */
export async function generate(): Promise<string> {
  const doc = await serverOpenApi();
  const ast = await openapiTS(doc, { alphabetize: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = await generate();
  if (process.argv.includes('--stdout')) process.stdout.write(source);
  else writeFileSync(OUTPUT, source);
}
