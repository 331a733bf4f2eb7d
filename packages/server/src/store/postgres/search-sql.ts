import type { SearchSql } from '../store.ts';

/**
 * Full-text search on PostgreSQL (documents/search.ts): `terms`, a tsvector generated from svc's
 * own tokens (`array_to_tsvector`: the strings become lexemes as they are, no parser, no
 * dictionary), under a GIN index. The tsquery is built from the same tokens, each `'word':*`
 * (prefix), joined by `&`, and cast: user input never reaches to_tsquery's syntax.
 */
const MATCHING = 'document_search s WHERE s.database_id = ? AND s.collection = ? AND s.terms @@ CAST(? AS tsquery)';

export const postgresSearch: SearchSql = {
  schema: [
    `CREATE TABLE document_search (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      collection TEXT NOT NULL,
      id TEXT NOT NULL,
      words TEXT NOT NULL,
      length INTEGER NOT NULL,
      terms tsvector GENERATED ALWAYS AS (array_to_tsvector(string_to_array(ltrim(words), ' '))) STORED,
      PRIMARY KEY (database_id, collection, id)
    )`,
    'CREATE INDEX document_search_terms ON document_search USING gin (terms)',
  ],
  settings: "CAST(settings->'search' AS TEXT)",
  matches: `id IN (SELECT s.id FROM ${MATCHING})`,
  matching: MATCHING,
  // Unflattened, the ranked matches reach the sort as (id, rank), not with the words they were ranked from.
  fence: ' OFFSET 0',
  query: (words) => words.map((w) => `'${w.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*`).join(' & '),
  float: 'DOUBLE PRECISION',
};
