import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { principalOf } from '../http/auth.ts';
import { errorResponses, NoContent } from '../http/error-schema.ts';
import type { WebhooksService } from './service.ts';
import {
  CreateBody,
  CreatedWebhook,
  DeliveryDetail,
  DeliveryEnvelope,
  DeliveryList,
  DeliveryParams,
  SecretResponse,
  UpdateBody,
  WebhookList,
  WebhookParams,
  WebhookSchema,
  deliveriesQuerySchema,
} from './schemas.ts';

/** §4 webhooks: secret key only. Handlers only parse, call the service and answer. */
export function webhookRoutes(app: FastifyInstance, deps: { webhooks: WebhooksService; maxPageSize: number }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = deps;
  const tags = ['webhooks'];
  const config = { access: 'secret' as const };
  const errors = errorResponses(400, 401, 403, 404);
  const db = (r: Parameters<typeof principalOf>[0]) => principalOf(r).databaseId;

  api.post(
    '/v1/webhooks',
    {
      config,
      schema: {
        tags,
        summary: 'Create a webhook (the answer holds its secret)',
        body: CreateBody,
        response: { 201: CreatedWebhook, ...errors, ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(db(request), request.body)),
  );

  api.get(
    '/v1/webhooks',
    {
      config,
      schema: { tags, summary: 'List webhooks', response: { 200: WebhookList, ...errors } },
    },
    async (request) => ({ webhooks: await webhooks.list(db(request)) }),
  );

  api.get(
    '/v1/webhooks/:id',
    {
      config,
      schema: { tags, summary: 'Get a webhook', params: WebhookParams, response: { 200: WebhookSchema, ...errors } },
    },
    async (request) => webhooks.get(db(request), request.params.id),
  );

  api.patch(
    '/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a webhook (url, events, collections, description, enabled)',
        params: WebhookParams,
        body: UpdateBody,
        response: { 200: WebhookSchema, ...errors },
      },
    },
    async (request) => webhooks.update(db(request), request.params.id, request.body),
  );

  api.delete(
    '/v1/webhooks/:id',
    {
      config,
      schema: { tags, summary: 'Delete a webhook and its deliveries', params: WebhookParams, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await webhooks.remove(db(request), request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      config,
      schema: {
        tags,
        summary: 'Replace the secret; every later attempt is signed with the new one',
        params: WebhookParams,
        response: { 200: SecretResponse, ...errors },
      },
    },
    async (request) => webhooks.rotateSecret(db(request), request.params.id),
  );

  api.post(
    '/v1/webhooks/:id/test',
    {
      config,
      schema: { tags, summary: 'Send a webhook.test delivery', params: WebhookParams, response: { 202: DeliveryEnvelope, ...errors } },
    },
    async (request, reply) => reply.code(202).send({ delivery: await webhooks.test(db(request), request.params.id) }),
  );

  api.get(
    '/v1/webhooks/:id/deliveries',
    {
      config,
      schema: {
        tags,
        summary: 'Deliveries of a webhook, newest first',
        params: WebhookParams,
        querystring: deliveriesQuerySchema(deps.maxPageSize),
        response: { 200: DeliveryList, ...errors },
      },
    },
    async (request) => webhooks.deliveries(db(request), request.params.id, request.query),
  );

  api.get(
    '/v1/webhooks/:id/deliveries/:deliveryId',
    {
      config,
      schema: { tags, summary: 'A delivery with its attempt log', params: DeliveryParams, response: { 200: DeliveryDetail, ...errors } },
    },
    async (request) => webhooks.delivery(db(request), request.params.id, request.params.deliveryId),
  );

  api.post(
    '/v1/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config,
      schema: {
        tags,
        summary: 'Queue a finished delivery again (409 while it is pending)',
        params: DeliveryParams,
        response: { 202: DeliveryEnvelope, ...errors, ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(202).send({ delivery: await webhooks.retry(db(request), request.params.id, request.params.deliveryId) }),
  );
}
