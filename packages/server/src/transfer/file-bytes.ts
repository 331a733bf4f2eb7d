import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ApiError } from '../errors.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import { filePrefix, originalKey } from '../files/keys.ts';
import type { PortableRow } from '../store/bulk/bulk.ts';
import type { ChunkLine } from './format.ts';

/** One file being written from its chunk lines. */
interface Writing {
  id: string;
  stream: PassThrough;
  put: Promise<void>;
  hash: Hash;
  size: number;
}

/**
 * The bytes of an import's files (format version 3): each file's chunk lines streamed into the
 * byte store as they are read (one chunk in memory), checked against the record's size and
 * SHA-256 once its last chunk arrived, so an import never records a file whose bytes differ.
 */
export class FileBytes {
  private readonly expected = new Map<string, { size: number; sha256: string }>();
  private readonly written: string[] = [];
  private current: Writing | undefined;
  private chunks = 0;
  started = false;

  constructor(
    private readonly bytes: ByteStore | undefined,
    private readonly databaseId: string,
    private readonly bad: (message: string) => ApiError,
  ) {}

  /** A file row: its bytes must follow. */
  expect(row: PortableRow): void {
    const data = JSON.parse(String(row.data)) as { size?: number; sha256?: string };
    this.expected.set(String(row.id), { size: Number(row.size), sha256: String(data.sha256) });
  }

  async chunk(line: ChunkLine): Promise<void> {
    this.started = true;
    if (!this.bytes) throw this.bad('the export carries file bytes, and no byte store was given');
    if (typeof line.file !== 'string' || typeof line.data !== 'string') throw this.bad('a chunk line has a file id and base64 data');
    if (this.current?.id !== line.file) {
      await this.close();
      if (!this.expected.has(line.file)) throw this.bad(`chunks of a file with no record (${line.file}), or after its last chunk`);
      this.current = this.open(line.file);
    }
    const data = Buffer.from(line.data, 'base64');
    const w = this.current!;
    w.hash.update(data);
    w.size += data.length;
    this.chunks += 1;
    if (!w.stream.write(data)) await Promise.race([once(w.stream, 'drain'), w.put]);
  }

  /** After the last line: every file's bytes arrived (empty files have no chunks). */
  async finish(promised: number): Promise<void> {
    await this.close();
    for (const [id, want] of this.expected) {
      if (want.size !== 0) throw this.bad(`the bytes of file ${id} are missing`);
      const w = this.open(id);
      await this.close(w);
    }
    if (promised !== this.chunks) throw this.bad(`the export promised ${promised} chunk lines and held ${this.chunks}: the file is damaged`);
  }

  /** After a failed import: the bytes it stored go again (a crash leaves them to the sweep). */
  async removeWritten(): Promise<void> {
    this.current?.stream.destroy();
    for (const id of this.written) await this.bytes?.removePrefix(filePrefix(this.databaseId, id)).catch(() => undefined);
  }

  private open(id: string): Writing {
    const stream = new PassThrough();
    this.written.push(id);
    const put = this.bytes!.put(originalKey(this.databaseId, id), stream);
    put.catch(() => undefined);
    return { id, stream, put, hash: createHash('sha256'), size: 0 };
  }

  private async close(w = this.current): Promise<void> {
    if (!w) return;
    if (w === this.current) this.current = undefined;
    w.stream.end();
    await w.put;
    const want = this.expected.get(w.id)!;
    this.expected.delete(w.id);
    if (want.size !== w.size || want.sha256 !== w.hash.digest('hex')) throw this.bad(`the bytes of file ${w.id} do not match its record (size or SHA-256)`);
  }
}
