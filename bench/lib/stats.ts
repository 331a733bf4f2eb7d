import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes of one machine. */
export const now = (): number => performance.timeOrigin + performance.now();

/** The q-quantile (0..1) of ascending sorted values, nearest rank; NaN when empty. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** p50, p99 and max of a list of values (any order). */
export function percentiles(values: number[]): { p50: number; p99: number; max: number; count: number } {
  const s = Float64Array.from(values).sort();
  return { p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.length ? s[s.length - 1] : NaN, count: s.length };
}

/** Resident set size of a process in KiB (`VmRSS` of /proc/<pid>/status); NaN where there is no /proc. */
export function rssKiB(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** This process's soft limit on open files (`Max open files` of /proc/self/limits); Infinity when unknown. */
export function openFilesLimit(): number {
  try {
    const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return !m || m[1] === 'unlimited' ? Infinity : Number(m[1]);
  } catch {
    return Infinity;
  }
}

/** The distinct messages of a server's output lines (pino JSON or plain text), quoted, at most 3. */
export function summarize(lines: string[]): string {
  const seen = new Map<string, number>();
  for (const line of lines) {
    let msg = line;
    try {
      const j = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      msg = `level ${j.level}: ${[j.msg, j.err?.message].filter(Boolean).join(': ')}`;
    } catch {
      // not pino JSON
    }
    msg = msg.replace(/^\(node:\d+\) /, '').slice(0, 160);
    seen.set(msg, (seen.get(msg) ?? 0) + 1);
  }
  return [...seen]
    .slice(0, 3)
    .map(([m, n]) => `${n}× \`${m.replace(/`/g, "'")}\``)
    .join('; ');
}
