#!/usr/bin/env node
// The `svc` command (npx svc …). In a checkout, where tsx is installed, it runs the TypeScript
// sources, so the CLI is never older than the code beside it; in the production image (no
// devDependencies, no sources) it runs the build in dist/ (`npm run build`).
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli.ts', import.meta.url);
let tsx;
try {
  tsx = existsSync(sources) ? await import('tsx/esm/api') : undefined;
} catch {
  tsx = undefined;
}
if (tsx) {
  tsx.register();
  await import(sources.href);
} else {
  await import('../dist/cli.js');
}
