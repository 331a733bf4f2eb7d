import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/ sits directly in it). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The file every scenario writes its section into. */
export const BENCHMARKS_MD = join(ROOT, 'BENCHMARKS.md');
