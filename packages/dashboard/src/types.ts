/**
 * The shapes the dashboard reads from the API, taken from the SDK's generated OpenAPI types
 * (packages/client/src/generated/api.ts, generated from GET /v1/openapi.json): when a route's schema
 * changes, the dashboard stops type-checking instead of drifting. Names that the server also uses
 * (Database, User, Webhook, …) have the server's shape; answers the server names differently get
 * names of their own (DatabaseSettings, DeliveryDetail, OperatorSession).
 */
import type { paths } from '../../client/src/generated/api.ts';
import type { RequestBody, ResponseBody } from '../../client/src/types.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON answer of `method path` with status `status`, as the server's route schema declares it. */
export type Answer<P extends keyof paths, M extends Method, S extends number = 200> = ResponseBody<P, M, S>;

/** The JSON body `method path` takes. */
export type Body<P extends keyof paths, M extends Method> = RequestBody<P, M>;

/** The §0 error body every route answers with on failure. */
export type ErrorBody = Answer<'/v1/admin/databases', 'get', 400>;
/** One `{path, message}` of an error's `details`. */
export type ErrorDetail = NonNullable<ErrorBody['error']['details']>[number];

/** `POST /admin/sign-in` and `POST /admin/setup`: the operator token and who it belongs to. */
export type OperatorSession = Answer<'/v1/admin/sign-in', 'post'>;
/** An operator of this instance. */
export type Operator = NonNullable<OperatorSession['operator']>;
/** `POST /admin/mfa/challenge`: the second step of an operator sign-in. */
export type MfaChallenge = Answer<'/v1/admin/mfa/challenge', 'post'>;
/** `GET /admin/mfa`: the operator's factors. */
export type OperatorFactors = Answer<'/v1/admin/mfa', 'get'>;
/** `POST /admin/mfa/totp`: a new factor's secret and otpauth URL. */
export type Enrolment = Answer<'/v1/admin/mfa/totp', 'post', 201>;
/** `GET /admin/setup`: whether the first operator is still to be created. */
export type SetupState = Answer<'/v1/admin/setup', 'get'>;
/** `GET /admin/me`: the operator and the instance's public URL. */
export type Me = Answer<'/v1/admin/me', 'get'>;

/** `GET /admin/databases`. */
export type DatabaseList = Answer<'/v1/admin/databases', 'get'>;
/** A database as the management API shows it. */
export type Database = DatabaseList['databases'][number];
/** A database's settings as read back: client secrets appear only as `clientSecretSet`. */
export type DatabaseSettings = Database['settings'];
/** `POST /admin/databases`: the database and its first secret key, shown once. */
export type CreatedDatabase = Answer<'/v1/admin/databases', 'post', 201>;
/** What `PATCH /admin/databases/:id` takes: a new name, settings merged in. */
export type DatabasePatch = Body<'/v1/admin/databases/{id}', 'patch'>;

/** `GET /admin/databases/:id/keys`. */
export type KeyList = Answer<'/v1/admin/databases/{id}/keys', 'get'>;
/** An API key as listed: its hint, never a secret key. */
export type Key = KeyList['keys'][number];
/** A key just created: the only answer that carries the whole key. */
export type NewKey = Answer<'/v1/admin/databases/{id}/keys', 'post', 201>;

/** `GET /collections`. */
export type CollectionList = Answer<'/v1/collections', 'get'>;
/** A collection with its document count. */
export type CollectionInfo = CollectionList['collections'][number];
/** A stored document: its fields beside `id`, `createdAt`, `updatedAt`. */
export type Doc = Answer<'/v1/{collection}/docs/{id}', 'get'>;
/** The query a collection's documents are listed with. */
export type DocQuery = NonNullable<paths['/v1/{collection}/docs']['get']['parameters']['query']>;
/** One page of a collection's documents. */
export type DocPage = Answer<'/v1/{collection}/docs', 'get'>;

/** `GET /auth/users` (API.md §2.1, with the operator token and X-Database-Id): one page of a database's end users, oldest first. */
export type UserPage = Answer<'/v1/auth/users', 'get'>;
/** An end user. */
export type User = UserPage['users'][number];
/** What `PATCH /auth/users/:id` changes: name, avatar, emailVerified, appMetadata (replaced whole), disabled. */
export type UserPatch = Body<'/v1/auth/users/{id}', 'patch'>;
/** An end user with its live session count and linked providers (the dashboard's extras). */
export type UserDetail = Answer<'/v1/admin/databases/{id}/users/{userId}', 'get'>;
/** `POST /admin/databases/:id/users/:userId/sign-out`: how many sessions ended. */
export type UserSignOut = Answer<'/v1/admin/databases/{id}/users/{userId}/sign-out', 'post'>;

/** `GET /webhooks`. */
export type WebhookList = Answer<'/v1/webhooks', 'get'>;
/** A webhook (never its secret). */
export type Webhook = Answer<'/v1/webhooks/{id}', 'get'>;
/** The fields a webhook is created with. */
export type WebhookBody = Body<'/v1/webhooks', 'post'>;
/** The fields `PATCH /webhooks/:id` changes. */
export type WebhookPatch = Body<'/v1/webhooks/{id}', 'patch'>;
/** `POST /webhooks`: the webhook and its signing secret. */
export type NewWebhook = Answer<'/v1/webhooks', 'post', 201>;
/** `POST /webhooks/:id/rotate-secret`: the new signing secret. */
export type RotatedSecret = Answer<'/v1/webhooks/{id}/rotate-secret', 'post'>;
/** One page of a webhook's deliveries. */
export type DeliveryPage = Answer<'/v1/webhooks/{id}/deliveries', 'get'>;
/** A delivery as listed. */
export type Delivery = DeliveryPage['deliveries'][number];
/** A delivery with its attempt log. */
export type DeliveryDetail = Answer<'/v1/webhooks/{id}/deliveries/{deliveryId}', 'get'>;

/** `POST /realtime/token`: the WebSocket URL to open and when the token expires. */
export type RealtimeToken = Answer<'/v1/realtime/token', 'post', 201>;

// /v1/rules is newer than the SDK's generated types: until they are regenerated (npm run generate -w
// @svc/client), these fall back to the shape routes.ts declares; afterwards the generated ones apply.
type RulesPath = Extract<keyof paths, '/v1/rules'>;
type Rule = boolean | 'signedIn' | { [key: string]: unknown };
/** `GET /rules` and `PUT /rules`: a database's access rules (API.md §10), exactly as last written. */
export type RulesAnswer = [RulesPath] extends [never]
  ? { rules: { [collection: string]: { read?: Rule; create?: Rule; update?: Rule; delete?: Rule } } }
  : Answer<RulesPath, 'get'>;
/** What `PUT /rules` takes: the rules whole (checked by the server, 400 `invalid_rules`). */
export type RulesBody = [RulesPath] extends [never] ? { rules: unknown } : Body<RulesPath, 'put'>;
