/**
 * Issue 25 (files, API.md §12): uploads of 1 MiB at 10 connections and downloads of a 1 MiB file,
 * on svc's local byte store beside a bare Fastify that streams the same bytes to the same disk
 * (baseline/bare-files.ts), measured in the same run; and a kept thumbnail served beside a plain
 * file of the same size. The same svc rows on the S3 byte store (an s3rver on 127.0.0.1, which
 * itself writes to this disk): the bare baseline has no S3 side, so those ratios include s3rver.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { startSvc, stopSvc } from '../lib/svc.ts';

const MiB = 1024 * 1024;
/** One MiB of text: the same bytes for svc and the bare server (autocannon sends strings as they are). */
const BODY = 'x'.repeat(MiB);
const OCTETS = { 'content-type': 'application/octet-stream' };

async function upload(url: string, path: string, key: string | undefined, body: Buffer | string, type = 'application/octet-stream') {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': type },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string; size: number };
}

type Row = [string, Measurement, Measurement | undefined];
const line = ([what, m, base]: Row): string[] => [
  what,
  num(m.rps),
  num(m.p50, 1),
  num(m.p99, 1),
  base ? `${num((100 * m.rps) / base.rps)} %` : '—',
  m.failures ? m.failureDetail : '',
];

/** Alternating runs of bare's and svc's local-disk uploads. */
const UPLOAD_PAIRS = 3;
const best = (a: Measurement, b: Measurement) => (a.rps >= b.rps ? a : b);

const scenario: Scenario = {
  name: 'files',
  description: 'files: 1 MiB uploads (10 connections) and downloads vs a bare Fastify streaming to the same disk; kept thumbnail vs plain file; local and S3',
  async run() {
    const notes: string[] = [];
    const rows: Row[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-files-'));
    const bare = await startProcess('bare files', ['--import', 'tsx', 'bench/baseline/bare-files.ts'], { BARE_DIR: dir }, ROOT);
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'bench', configs: [] }] });
    const s3port = ((await s3.run()) as { port: number }).port;
    try {
      const bareFile = await upload(bare.url, '/files', undefined, BODY);
      log('bare: upload, download');
      const bareUpload = () => measure({ url: bare.url, method: 'POST', path: '/files', body: BODY, next: () => ({ headers: OCTETS }) });
      let bareUp = await bareUpload();
      const bareDown = await measure({ url: bare.url, path: `/files/${bareFile.id}` });
      const bareRows: Row[] = [
        ['bare Fastify: upload 1 MiB', bareUp, undefined],
        ['bare Fastify: download 1 MiB', bareDown, undefined],
      ];
      rows.push(...bareRows);
      const stores: Array<[string, Record<string, string>]> = [
        ['local disk', { STORAGE_URL: `file:${join(dir, 'svc-files')}` }],
        [
          'S3 (s3rver)',
          {
            STORAGE_URL: 's3://bench',
            S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
            S3_ACCESS_KEY_ID: 'S3RVER',
            S3_SECRET_ACCESS_KEY: 'S3RVER',
            S3_FORCE_PATH_STYLE: 'true',
          },
        ],
      ];
      for (const [label, env] of stores) {
        log(`svc on ${label}`);
        const svc = await startSvc('sqlite', { ...env, LIMIT_STORAGE_BYTES_PER_DATABASE: String(1024 * 1024 * MiB), RATE_LIMIT_FILES_PER_IP: '100000000' });
        try {
          const target = (t: Omit<LoadTarget, 'url' | 'key'>): LoadTarget => ({ url: svc.url, key: svc.key, ...t });
          const file = await upload(svc.url, '/v1/files/bench?name=one.bin', svc.key, BODY);
          const sharp = (await import('sharp')).default;
          const image = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#4a7' } })
            .jpeg()
            .toBuffer();
          const picture = await upload(svc.url, '/v1/files/bench?name=pic.jpg', svc.key, image, 'image/jpeg');
          const thumbPath = `/v1/files/bench/${picture.id}/content?thumb=100x100`;
          const thumb = Buffer.from(await (await fetch(svc.url + thumbPath, { headers: { authorization: `Bearer ${svc.key}` } })).arrayBuffer());
          const plain = await upload(svc.url, '/v1/files/bench?name=plain.bin', svc.key, thumb);
          const svcUpload = () => measure(target({ method: 'POST', path: '/v1/files/bench?name=up.bin', body: BODY, next: () => ({ headers: OCTETS }) }));
          let up = await svcUpload();
          if (label === 'local disk') {
            // Uploads swing most from run to run (the kernel's copies into the page cache): bare and
            // svc alternate UPLOAD_PAIRS times on the same disk, and each keeps its best run.
            for (let i = 1; i < UPLOAD_PAIRS; i++) {
              bareUp = best(bareUp, await bareUpload());
              up = best(up, await svcUpload());
            }
            bareRows[0][0] = `bare Fastify: upload 1 MiB (best of ${UPLOAD_PAIRS})`;
            bareRows[0][1] = bareUp;
          }
          const down = await measure(target({ path: `/v1/files/bench/${file.id}/content` }));
          const plainServed = await measure(target({ path: `/v1/files/bench/${plain.id}/content` }));
          const thumbServed = await measure(target({ path: thumbPath }));
          rows.push(
            [`svc, ${label}: upload 1 MiB${label === 'local disk' ? ` (best of ${UPLOAD_PAIRS}, as bare's)` : ''}`, up, bareUp],
            [`svc, ${label}: download 1 MiB`, down, bareDown],
            [`svc, ${label}: a plain file of ${num(thumb.length)} B`, plainServed, undefined],
            [`svc, ${label}: a kept 100x100 thumbnail (${num(thumb.length)} B), vs the plain file`, thumbServed, plainServed],
          );
        } finally {
          await stopSvc(svc, `svc on ${label}`, notes);
        }
      }
    } finally {
      await bare.stop();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return [
      '## Files (issue 25)',
      '',
      machine(),
      '',
      table(['what', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'failures'], rows.map(line), ['l', 'r', 'r', 'r', 'r', 'l']),
      '',
      'Ratios: svc to the bare Fastify of the same row kind (uploads, downloads), and the kept thumbnail to a plain',
      "file of the same size. svc's upload also hashes (SHA-256), sniffs the type, writes the record and its event in",
      'a transaction and renames the temp file into place; its download checks the key and the record first. The bare',
      'server has no S3 side: the S3 rows include s3rver (a Node S3 server on the same 2 cores) in their cost.',
      `The local-disk uploads alternate bare and svc ${UPLOAD_PAIRS} times and each keeps its best run: single runs of the same build spread widely even on a quiet machine (the kernel's copies into the page cache vary).`,
      ...(notes.length ? ['', ...notes] : []),
    ].join('\n');
  },
};

export default scenario;
