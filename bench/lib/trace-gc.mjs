/** Loaded into a server with `--import` (bench/bulk-cost.ts, BENCH_TRACE_GC): --trace-gc, which NODE_OPTIONS does not take. */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--trace-gc');
