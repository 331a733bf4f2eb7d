import { Type, type Static } from '@sinclair/typebox';

/** Schemas of the §4 routes: they validate input and generate /v1/openapi.json. */
const EVENT_TYPES = ['document.created', 'document.updated', 'document.deleted', 'file.created', 'file.updated', 'file.deleted', '*'] as const;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http or https; must not resolve to a loopback, private, link-local or metadata address unless WEBHOOK_ALLOW_PRIVATE_URLS=true',
});
const Events = Type.Array(Type.Union(EVENT_TYPES.map((e) => Type.Literal(e))), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'Default ["*"]' });
// A collection, or a bucket's files as `files/<bucket>` (§12).
const Collections = Type.Array(Type.String({ pattern: '^(files/)?[A-Za-z][A-Za-z0-9_-]{0,63}$' }), {
  maxItems: 100,
  uniqueItems: true,
  description: 'Empty or absent: every collection',
});
// Null first: with coerceTypes, ajv would turn null into "" trying the string branch first.
const Description = Type.Union([Type.Null(), Type.String({ maxLength: 1000 })]);

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  collections: Type.Array(Type.String()),
  description: Description,
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the service disabled the webhook by itself (repeated failures); null otherwise',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const CreatedWebhook = Type.Composite([
  WebhookSchema,
  Type.Object({ secret: Type.String({ description: 'whsec_<base64>; shown only here and by rotate-secret' }) }),
]);

export const CreateBody = Type.Object(
  { url: Url, events: Type.Optional(Events), collections: Type.Optional(Collections), description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const UpdateBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    collections: Type.Optional(Collections),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const WebhookParams = Type.Object({ id: Type.String() });
export const DeliveryParams = Type.Object({ id: Type.String(), deliveryId: Type.String() });

export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookSchema) });
export const SecretResponse = Type.Object({ id: Type.String(), secret: Type.String() });

const Status = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

const DeliverySchema = Type.Object({
  id: Type.String({ description: 'Also the X-Service-Delivery and webhook-id headers of every attempt' }),
  webhookId: Type.String(),
  eventId: Type.String(),
  event: Type.String(),
  status: Status,
  attempts: Type.Integer(),
  nextAttemptAt: NullableString,
  lastAttemptAt: NullableString,
  responseStatus: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

export const DeliveryDetail = Type.Composite([
  DeliverySchema,
  Type.Object({
    attemptLog: Type.Array(
      Type.Object({
        at: Type.String({ format: 'date-time' }),
        responseStatus: Type.Union([Type.Integer(), Type.Null()]),
        durationMs: Type.Integer(),
        error: NullableString,
        responseBody: Type.Union([Type.String({ description: 'The first 1 KiB of the answer' }), Type.Null()]),
      }),
    ),
  }),
]);

export const DeliveryEnvelope = Type.Object({ delivery: DeliverySchema });

export function deliveriesQuerySchema(maxPageSize: number) {
  return Type.Object(
    {
      limit: Type.Integer({ minimum: 1, maximum: maxPageSize, default: 20 }),
      offset: Type.Integer({ minimum: 0, default: 0 }),
      status: Type.Optional(Status),
    },
    { additionalProperties: false },
  );
}

export const DeliveryList = Type.Object({ deliveries: Type.Array(DeliverySchema), total: Type.Integer() });
