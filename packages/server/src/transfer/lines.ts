import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Bytes gathered before one write: fewer system calls than a write per line. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Writes NDJSON lines to a stream with backpressure: lines are gathered into chunks, and a chunk
 * the stream can't take yet waits for 'drain', so a slow reader (a pipe into `svc import`) holds
 * the export back instead of filling memory.
 */
export class LineWriter {
  private buffer = '';
  constructor(private readonly out: Writable) {}

  async line(value: unknown): Promise<void> {
    this.buffer += `${JSON.stringify(value)}\n`;
    if (this.buffer.length >= CHUNK_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }
}

/** Double-quotes an identifier read from the store's catalogue (both engines accept "name"). */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
