import autocannon from 'autocannon';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newKey } from '../packages/client/src/http.ts';
import { oneDocBody } from './lib/documents.ts';
import { startSvc } from './lib/svc.ts';

const store = (process.env.STORE ?? 'sqlite') as 'sqlite' | 'postgres';
const shape = process.env.SHAPE ?? 'keyed';
const svc = await startSvc(store);
const run = (amount: number) =>
  autocannon({ url: svc.url, connections: 50, amount, headers: { authorization: `Bearer ${svc.key}` },
    requests: [{ method: 'POST', path: `/v1/${shape}/docs`, headers: { 'content-type': 'application/json' }, body: oneDocBody,
      setupRequest: (req: any) => ({ ...req, headers: { ...req.headers, ...(shape === 'keyed' ? { 'idempotency-key': newKey() } : { 'x-nonce': newKey() }) } }) }] });
await run(3000);
const r = await run(Number(process.env.N ?? 20000));
console.log('non2xx', r.non2xx, 'errors', r.errors);
await svc.stop();
