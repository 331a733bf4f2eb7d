import type { Doc } from '../types.js';
import type { HeldDoc, QueuedWrite } from './storage.js';

/** One change of a sync answer (API.md §3.1). */
export type Change = { op: 'upsert'; id: string; version: string; document: Doc<Record<string, unknown>> } | { op: 'delete'; id: string; version: string };

export interface SyncAnswer {
  changes: Change[];
  checkpoint: string | null;
  lastEventId: string | null;
  nextCursor: string | null;
  reset: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396 JSON Merge Patch, as the server applies a PATCH (nested objects merge, null removes). */
export function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(v)) out[k] = mergePatch(isObject(out[k]) ? (out[k] as Record<string, unknown>) : {}, v);
    else out[k] = v;
  }
  return out;
}

/** The merge patch that turns `from` into `to` (top-level fields; system fields left to the server). */
export function mergePatchBetween(from: Record<string, unknown>, to: Record<string, unknown>): Record<string, unknown> {
  const system = new Set(['id', 'createdAt', 'updatedAt']);
  const patch: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!system.has(k) && !(k in to)) patch[k] = null;
  for (const [k, v] of Object.entries(to)) if (!system.has(k) && JSON.stringify(v) !== JSON.stringify(from[k])) patch[k] = v;
  return patch;
}

/**
 * The local view: the server's copy with the queued writes applied in order, as the server would
 * apply them (createdAt/updatedAt stand in locally until the server's answer replaces them).
 */
export function applyLocally(docs: Map<string, HeldDoc>, queue: QueuedWrite[]): Map<string, Doc<Record<string, unknown>>> {
  const view = new Map<string, Doc<Record<string, unknown>>>();
  for (const [id, d] of docs) view.set(id, d.document);
  for (const w of queue) {
    const now = new Date(Number.parseInt(w.seq.slice(0, 10), 36)).toISOString();
    if (w.kind === 'create')
      view.set(w.id, { ...(w.body as Record<string, unknown>), id: w.id, createdAt: now, updatedAt: now } as Doc<Record<string, unknown>>);
    else if (w.kind === 'update') {
      const held = view.get(w.id);
      if (held) view.set(w.id, { ...mergePatch(held, w.body ?? {}), id: w.id, createdAt: held.createdAt, updatedAt: now } as Doc<Record<string, unknown>>);
    } else view.delete(w.id);
  }
  return view;
}
