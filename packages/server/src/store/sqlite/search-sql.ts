import type { SearchSql } from '../store.ts';

/**
 * Full-text search on SQLite (documents/search.ts): an FTS5 index over `document_search.words`
 * (external content: the rows live in `document_search`, triggers keep the index in step). The
 * words are svc's own tokens, already lowercased and split (documents/search.ts `tokenize`), so
 * the `ascii` tokenizer only splits them again at the spaces: every non-ASCII character is a
 * token character to it, and the ASCII ones left are [a-z0-9]. `detail=none`: no positions, as
 * no query needs them (words are ANDed, never phrases), which keeps the index small.
 */
const MATCHING =
  'document_search_fts JOIN document_search s ON s.row = document_search_fts.rowid WHERE s.database_id = ? AND s.collection = ? AND document_search_fts MATCH ?';

export const sqliteSearch: SearchSql = {
  schema: [
    `CREATE TABLE document_search (
      row INTEGER PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      collection TEXT NOT NULL,
      id TEXT NOT NULL,
      words TEXT NOT NULL,
      length INTEGER NOT NULL,
      UNIQUE (database_id, collection, id)
    )`,
    `CREATE VIRTUAL TABLE document_search_fts USING fts5(words, content='document_search', content_rowid='row', tokenize='ascii', detail='none')`,
    `CREATE TRIGGER document_search_inserted AFTER INSERT ON document_search BEGIN
      INSERT INTO document_search_fts (rowid, words) VALUES (new.row, new.words);
    END`,
    `CREATE TRIGGER document_search_deleted AFTER DELETE ON document_search BEGIN
      INSERT INTO document_search_fts (document_search_fts, rowid, words) VALUES ('delete', old.row, old.words);
    END`,
    `CREATE TRIGGER document_search_updated AFTER UPDATE ON document_search BEGIN
      INSERT INTO document_search_fts (document_search_fts, rowid, words) VALUES ('delete', old.row, old.words);
      INSERT INTO document_search_fts (rowid, words) VALUES (new.row, new.words);
    END`,
  ],
  settings: "json_extract(settings, '$.search')",
  matches: `id IN (SELECT s.id FROM ${MATCHING})`,
  matching: MATCHING,
  fence: '',
  // Each word quoted (nothing in it is FTS5 syntax), `*`: by prefix; juxtaposed: ANDed.
  query: (words) => words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(' '),
  float: 'REAL',
};
