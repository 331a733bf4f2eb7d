import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../../http/error-schema.ts';

const FormPostBody = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true, description: "Apple's form post: code, state, error (and, the first time, `user`, which is not kept)" },
);

/**
 * Apple posts its answer to the callback as a form when the e-mail is asked for
 * (`response_mode=form_post`). That POST comes from appleid.apple.com, so the browser leaves out
 * the `SameSite=Lax` cookie binding the state to it (browser-binding.ts). This route answers 303
 * to the ordinary GET callback with the same code and state: a top-level GET navigation, which
 * carries the cookie, and the GET route does every check. Only this one route parses forms (its
 * own Fastify scope); every other route still takes JSON alone.
 */
export async function appleFormPost(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/v1/auth/oauth/apple/callback',
    {
      config: { access: 'open' },
      schema: {
        tags: ['auth'],
        summary: "Apple's form post back: on to the GET callback with the same code and state",
        security: [],
        consumes: ['application/x-www-form-urlencoded'],
        body: FormPostBody,
        response: { 303: { type: 'null', description: 'Redirect to the GET callback' }, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { code, state, error } = request.body;
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries({ code, state, error })) if (v !== undefined) query.set(k, v);
      // Relative to this very path: the same callback, whatever prefix PUBLIC_URL has.
      return reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store').redirect(`?${query}`, 303);
    },
  );
}
