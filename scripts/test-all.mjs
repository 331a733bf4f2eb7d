// `npm test`: the linter and formatter check (Biome), the typecheck, then every workspace's tests. Each step runs even when an earlier one
// failed, so one run shows every failure; the exit code is non-zero if any step failed.
import { spawnSync } from 'node:child_process';

const steps = [
  ['lint', ['run', 'lint']],
  ['typecheck', ['run', 'typecheck']],
  ['filter', ['test', '-w', '@svc/filter']],
  ['client', ['test', '-w', '@svc/client']],
  ['server', ['test', '-w', '@svc/server']],
  ['dashboard', ['test', '-w', '@svc/dashboard']],
];
const failed = [];
for (const [name, args] of steps) {
  const r = spawnSync('npm', args, { stdio: 'inherit' });
  if (r.status !== 0) failed.push(name);
}
if (failed.length) console.error(`npm test: failed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
