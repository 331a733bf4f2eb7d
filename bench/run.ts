/**
 * `npm run bench [-- <scenario> …]`: runs every scenario module in bench/scenarios/ (or the named
 * ones) one after the other and writes each one's table into its section of BENCHMARKS.md.
 * `npm run bench -- --list` lists them. See bench/README.md.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCHMARKS_MD, ROOT } from './lib/paths.ts';
import { writeSection } from './lib/markdown.ts';
import { log, type Scenario } from './lib/scenario.ts';

const dir = join(ROOT, 'bench', 'scenarios');
const scenarios: Scenario[] = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: Scenario };
  scenarios.push(mod.default);
}

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const s of scenarios) console.log(`${s.name.padEnd(14)} ${s.description}`);
  process.exit(0);
}
const unknown = args.filter((a) => !scenarios.some((s) => s.name === a));
if (unknown.length) {
  console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

let failed = false;
for (const s of scenarios.filter((x) => args.length === 0 || args.includes(x.name))) {
  log(`scenario ${s.name}: ${s.description}`);
  try {
    const body = await s.run();
    writeSection(BENCHMARKS_MD, s.name, body);
    console.log(`\n${body}\n`);
    log(`scenario ${s.name}: written to BENCHMARKS.md`);
  } catch (e) {
    failed = true;
    console.error(`scenario ${s.name} failed:`, e);
  }
}
process.exit(failed ? 1 : 0);
