import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; description?: string };
type Responses = Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
type OpenApi = { paths: Record<string, Record<string, { responses: Responses }>> };

forEachStore('error answers in /v1/openapi.json', (kind) => {
  const t = useServer(kind);

  test('every documented 4xx/5xx answer has the §0 error shape; every 204 of the management, document and webhook routes is "No content"', async () => {
    const doc = await apiClient(t.server).get<OpenApi>('/openapi.json');
    let errors = 0;
    let noContent = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          if (Number(status) >= 400) {
            const schema = response.content?.['application/json']?.schema;
            assert.ok(schema?.properties?.error, `${where}: the error shape`);
            assert.deepEqual(schema.properties.error.required?.slice().sort(), ['code', 'message'], where);
            errors += 1;
          }
          if (status === '204' && /^\/v1\/(admin|webhooks|\{collection\})/.test(path)) {
            assert.equal(response.description, 'No content', where);
            assert.equal(response.content, undefined, `${where}: no body`);
            noContent += 1;
          }
        }
      }
    }
    assert.ok(errors > 50, `error answers are documented (${errors})`);
    assert.ok(noContent >= 5, `204 answers are documented (${noContent})`);
    const create = doc.paths['/v1/{collection}/docs'].post.responses;
    assert.deepEqual(
      Object.keys(create)
        .filter((s) => Number(s) >= 400)
        .sort(),
      ['400', '401', '403', '404', '409', '413', '422'],
    );
  });
});
