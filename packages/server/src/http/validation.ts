import type { FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Route schemas compile with two Ajv instances: query strings, path parameters and headers are
 * text, so they are coerced to the schema's types (`?limit=20` → 20); a JSON body already carries
 * its types, so it is not (a number where a string belongs is a 400, not a silent "5").
 */
export function installValidation(app: FastifyInstance): void {
  const options = { useDefaults: true, removeAdditional: false, allErrors: true, strict: false } as const;
  const coercing = addFormats(new Ajv({ ...options, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...options, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema));
}
