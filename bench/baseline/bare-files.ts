/**
 * The bare baseline of the `files` scenario: the least a Fastify server can do to take an upload
 * and serve it back, streaming the same bytes to the same disk as svc's local byte store, with
 * none of svc's work (keys, names, hashing, sniffing, records, events, rules, headers). Run by
 * bench/ in its own process: `BARE_DIR=<dir> PORT=<port> node --import tsx bench/baseline/bare-files.ts`.
 *
 *   POST /files    the raw body → written to BARE_DIR/<uuid> → 201 {id, size}
 *   GET /files/:id → 200 the bytes (streamed, with Content-Length)
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';

const dir = process.env.BARE_DIR ?? '/tmp';
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
app.get('/health', async () => ({ status: 'ok' }));
app.post('/files', async (req, reply) => {
  const id = randomUUID();
  const file = join(dir, id);
  await pipeline(req.body as NodeJS.ReadableStream, createWriteStream(file));
  return reply.code(201).send({ id, size: statSync(file).size });
});
app.get<{ Params: { id: string } }>('/files/:id', async (req, reply) => {
  const file = join(dir, req.params.id.replace(/[^0-9a-f-]/g, ''));
  return reply.type('application/octet-stream').header('content-length', statSync(file).size).send(createReadStream(file));
});

await app.listen({ port: Number(process.env.PORT ?? 8799), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
