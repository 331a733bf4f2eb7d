/**
 * The change log (API.md §3, §4; DESIGN.md "One change log"): every document change writes one
 * event row in the transaction that makes it. Realtime replays and fans out these events and
 * webhooks turn them into deliveries, so both always agree with what was committed.
 */
export type ChangeType = 'document.created' | 'document.updated' | 'document.deleted' | FileChangeType;
/** Files (API.md §12) enter the same log, under the collection `files/<bucket>`, the record as `document`. */
export type FileChangeType = 'file.created' | 'file.updated' | 'file.deleted';

/** One entry of the change log, as realtime and webhooks consume it. */
export interface ChangeEvent {
  /** Per database, gap-free and in commit order (append.ts): a decimal string of a 64-bit integer. */
  id: string;
  databaseId: string;
  collection: string;
  type: ChangeType;
  document: Record<string, unknown>;
  /** The document before an update; null for creates and deletes. */
  previous: Record<string, unknown> | null;
  timestamp: string;
}

/**
 * A change about to be appended: it gets its id and database from the log. `documentText`: the
 * document's JSON text when the writer built it already (a create's answer), written to the log as
 * is rather than serialised a second time; it stays out of the ChangeEvent.
 */
export type NewChange = Omit<ChangeEvent, 'id' | 'databaseId'> & {
  documentText?: string;
  /**
   * The created document went to its commit group's end as a deferred record (append.ts
   * deferDocuments), which writes this event from that record: the change needs no record of its own.
   */
  fromDeferredDocument?: boolean;
};

/** Something that hears about committed changes (realtime fan-out, tests). */
export type ChangeListener = (events: ChangeEvent[]) => void;
