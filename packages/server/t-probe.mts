import { SqliteStore } from './src/store/sqlite/sqlite-store.ts';
import { compileFilter } from './src/documents/query.ts';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
rmSync('/tmp/xp.db', { force: true }); rmSync('/tmp/xp.db-wal', { force: true });
let store = new SqliteStore('/tmp/xp.db');
await store.migrate();
const now = '2030-01-01T00:00:00.000Z';
await store.run('INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['d', 'd', '{}', now, now]);
for (let i = 0; i < 20000; i++) await store.run('INSERT INTO documents (database_id, collection, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', ['d', 'posts', `id${i}`, JSON.stringify({ tags: [`t${i % 100}`, 'common'], status: ['a','b','c','d'][i % 4], label: `l${i}` }), now, now]);
const json = store.dialect.json;
for (const p of ['label', 'status']) await store.run(store.dialect.createDocumentIndex(`documents_by_path_${p}`, [...json.sortKeys([p]), 'created_at']));
await store.close();
const w = new Database('/tmp/xp.db'); w.exec('ANALYZE documents'); w.close();
const plans = (label: string) => {
  const db = new Database('/tmp/xp.db', { readonly: true });
  for (const filter of [{ label: { $prefix: 'l123' } }, { label: 'l5' }, { status: 'a' }]) {
    const f = compileFilter(json, JSON.stringify(filter));
    const sql = `EXPLAIN QUERY PLAN SELECT id FROM documents WHERE database_id = ? AND collection = ? AND ${f.sql} ORDER BY created_at, id LIMIT 20`;
    console.log(label, JSON.stringify(filter), db.prepare(sql).all('d', 'posts', ...f.params).map((r: any) => r.detail).join(' | ').slice(0, 160));
  }
  db.close();
};
plans('stat4');
const w2 = new Database('/tmp/xp.db'); w2.exec('DROP TABLE sqlite_stat4'); w2.close();
plans('stat1');
