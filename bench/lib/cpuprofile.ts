/**
 * Reads a V8 CPU profile (`node --cpu-prof` writes one per thread when the process exits) and sums
 * its samples up: the functions with the most self time, and the time spent in each module
 * (svc's own folders, each npm package, node's core, V8) inclusive of what it called.
 *
 * Hand-written rather than a library: the format is small (a call tree and a list of sampled node
 * ids with time deltas) and what we need of it (a time window, grouping by package) is not what the
 * usual viewers (DevTools, speedscope) print as text.
 */
import { readFileSync } from 'node:fs';
import { ROOT } from './paths.ts';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** A `.cpuprofile` file as node writes it. Times in microseconds of the monotonic clock. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A time window in microseconds of the monotonic clock (`process.hrtime` on Linux uses the same one as V8's profiler). */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** What the samples of one window add up to. Times in milliseconds. */
export interface ProfileSummary {
  /** The window's length as the samples cover it. */
  totalMs: number;
  /** Time the thread was not idle (waiting in the event loop). */
  busyMs: number;
  samples: number;
  /** Functions by self time, largest first. */
  self: Array<{ fn: string; where: string; module: string; ms: number }>;
  /** Modules by inclusive time (a sample counts once for every module on its stack), largest first. */
  modules: Array<{ module: string; inclusiveMs: number; selfMs: number }>;
}

/** Reads one profile file. */
export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** When each sample was taken (µs), from the profile's start time and deltas. */
export function sampleTimes(p: CpuProfile): number[] {
  const times: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) times.push((t += d));
  return times;
}

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'V8: garbage collector',
  '(program)': 'V8: (program) (native code outside JS frames)',
  '(idle)': '(idle)',
};

const fileUrl = `file://${ROOT}/`;

/** The path of a frame's script, relative to the repository (or to its package in node_modules). */
function shortPath(url: string): string {
  if (url.startsWith('node:')) return url;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const i = url.indexOf('/packages/');
  if (i >= 0) return url.slice(i + 1);
  return url.startsWith(fileUrl) ? url.slice(fileUrl.length) : url;
}

/**
 * Where a frame's function is: its file, with the line for plain JavaScript. svc's TypeScript runs
 * as tsx compiled it, whitespace-minified to one line per file, so its line numbers say nothing.
 */
function at(f: CallFrame): string {
  return f.url.endsWith('.ts') ? shortPath(f.url) : `${shortPath(f.url)}:${f.lineNumber + 1}`;
}

/**
 * The module a JS frame belongs to: `svc: <folder of packages/server/src>`, an npm package name,
 * `node: <area>` for node's own JavaScript; undefined for frames without a script (native code).
 */
function moduleOfUrl(url: string): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('node:')) {
    const parts = url
      .slice(5)
      .replace(/^internal\//, '')
      .split('/');
    // stream_base_commons is the socket's write path (libuv streams), so it counts as net.
    const area = parts[0]
      .replace(/^_/, '')
      .replace(/^stream_base_commons$/, 'net')
      .replace(/^(http|stream)_.*$/, '$1')
      .replace(/\.js$/, '');
    return `node: ${area}`;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const src = url.indexOf('/packages/server/src/');
  if (src >= 0) {
    const rest = url.slice(src + '/packages/server/src/'.length).split('/');
    return `svc: ${rest.length > 1 ? rest[0] : rest[0].replace(/\.ts$/, '')}`;
  }
  return shortPath(url);
}

/**
 * Summarises the samples of `p` taken within `window` (all of them without one). Each sample
 * stands for the time until the next one. A native frame (no script: a V8 builtin such as
 * JSON.parse, or a C++ addon method such as better-sqlite3's `run`) is attributed to
 * `native ← <module of its caller>`, so `native ← svc: store` is mostly SQLite's own work.
 */
export function summarize(p: CpuProfile, window?: Window): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const moduleCache = new Map<number, string | undefined>();
  const moduleOf = (id: number): string | undefined => {
    if (moduleCache.has(id)) return moduleCache.get(id);
    const f = byId.get(id)!.callFrame;
    let m: string | undefined;
    if (SPECIAL[f.functionName]) m = SPECIAL[f.functionName];
    else if (f.functionName === '(root)') m = undefined;
    else if (f.url) m = moduleOfUrl(f.url);
    else {
      // Native: named after the nearest caller with a script.
      let up = parent.get(id);
      while (up !== undefined && !byId.get(up)!.callFrame.url) up = parent.get(up);
      m = `native ← ${up === undefined ? '?' : moduleOfUrl(byId.get(up)!.callFrame.url)}`;
    }
    moduleCache.set(id, m);
    return m;
  };
  const whereOf = (id: number): string => {
    const f = byId.get(id)!.callFrame;
    if (f.url) return at(f);
    if (SPECIAL[f.functionName]) return '—';
    let up = parent.get(id);
    while (up !== undefined && !byId.get(up)!.callFrame.url) up = parent.get(up);
    const caller = up === undefined ? undefined : byId.get(up)!.callFrame;
    return caller ? `native, called from ${caller.functionName || '(anonymous)'} (${at(caller)})` : 'native';
  };

  const times = sampleTimes(p);
  const selfByFn = new Map<string, { fn: string; where: string; module: string; ms: number }>();
  const inclusive = new Map<string, number>();
  const selfByModule = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  let samples = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const t = times[i];
    if (window && (t < window.fromUs || t >= window.toUs)) continue;
    const next = i + 1 < times.length ? times[i + 1] : p.endTime;
    const ms = Math.max(0, next - t) / 1000;
    samples++;
    totalMs += ms;
    const leaf = p.samples[i];
    const leafFrame = byId.get(leaf)!.callFrame;
    if (leafFrame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const leafModule = moduleOf(leaf) ?? '(root)';
    const key = `${leafFrame.functionName}|${leafFrame.url}|${leafFrame.lineNumber}|${leafFrame.url ? '' : leafModule}`;
    const entry = selfByFn.get(key) ?? { fn: leafFrame.functionName || '(anonymous)', where: whereOf(leaf), module: leafModule, ms: 0 };
    entry.ms += ms;
    selfByFn.set(key, entry);
    selfByModule.set(leafModule, (selfByModule.get(leafModule) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const m = moduleOf(id);
      if (m && !seen.has(m)) {
        seen.add(m);
        inclusive.set(m, (inclusive.get(m) ?? 0) + ms);
      }
    }
  }
  return {
    totalMs,
    busyMs: totalMs - idleMs,
    samples,
    self: [...selfByFn.values()].sort((a, b) => b.ms - a.ms),
    modules: [...inclusive]
      .map(([module, inclusiveMs]) => ({ module, inclusiveMs, selfMs: selfByModule.get(module) ?? 0 }))
      .sort((a, b) => b.inclusiveMs - a.inclusiveMs),
  };
}
