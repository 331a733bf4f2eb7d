/**
 * A bench scenario: one module in bench/scenarios/ whose default export is a Scenario. `npm run
 * bench` runs all of them (or those named on the command line) and writes each one's Markdown into
 * its own section of BENCHMARKS.md, so issues can add scenarios without touching each other's.
 */
export interface Scenario {
  /** The section key in BENCHMARKS.md and the name on the command line, e.g. `foundation`. */
  name: string;
  /** One line for `npm run bench -- --list`. */
  description: string;
  /** Starts what it needs, measures, stops it all again, and returns the section's Markdown. */
  run(): Promise<string>;
}

const t0 = Date.now();

/** Progress on stderr, prefixed with seconds since start (stdout gets the tables). */
export function log(message: string): void {
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}
