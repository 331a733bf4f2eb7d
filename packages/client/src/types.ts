import type { paths } from './generated/api.js';

/**
 * Types of the HTTP API, taken from the generated OpenAPI types (src/generated/api.ts), so they
 * follow the server's route schemas.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON answer of an operation for one status. */
export type ResponseBody<P extends keyof paths, M extends Method, S extends number> =
  Operation<P, M> extends { responses: infer R }
    ? S extends keyof R
      ? R[S] extends { content: { 'application/json': infer J } }
        ? J
        : never
      : never
    : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters of an operation. */
export type QueryParams<P extends keyof paths, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The fields the service adds to every document. */
export type SystemFields = Pick<ResponseBody<'/v1/{collection}/docs/{id}', 'get', 200>, 'id' | 'createdAt' | 'updatedAt'>;

/** A stored document: the user's fields flat beside `id`, `createdAt`, `updatedAt`. */
export type Doc<T extends object = Record<string, unknown>> = T & SystemFields;

/** What `create` takes: the user's fields, optionally with an `id` (1–128 chars of [A-Za-z0-9_-]). */
export type NewDoc<T extends object = Record<string, unknown>> = T & { id?: string };

/** A JSON Merge Patch (RFC 7396) of T: nested objects merge, `null` removes a field. */
export type MergePatch<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: MergePatch<T[K]> | null } : T;

/** One page of a list. */
export interface ListResult<T extends object = Record<string, unknown>> {
  documents: Doc<T>[];
  /** The size of the whole (filtered) set, not of what is left after a cursor. */
  total: number;
  limit: number;
  offset: number;
  /** Pass as `cursor` to get the next page (keyset paging: deep pages cost what the first does); null on the last page. */
  nextCursor: string | null;
}

type Scalar = string | number | boolean | null;
type Depth = [never, 0, 1, 2, 3, 4];
/** The element type of an array, or the type itself: a path or an operator over an array applies to its elements (§1.1). */
type Elem<V> = V extends readonly (infer E)[] ? E : V;
/** V when it is a JSON object (not an array), else never. */
type PlainObject<V> = V extends readonly unknown[] ? never : V extends object ? V : never;
/** The object a path may continue into below a field: the field itself, or the objects of an array. */
type Below<V> = PlainObject<Elem<NonNullable<V>>>;
/** Whether T takes any key (an index signature, as `Record<string, unknown>`): then every path is allowed. */
type IsOpen<T> = string extends keyof T ? true : false;

/**
 * The field paths of T, as `sortBy`, `filter` and `fields` take them: its keys and, joined by dots,
 * the keys of its nested objects (also of the objects inside arrays), up to 5 levels deep.
 *
 * @example FieldPath<{ title: string; author: { name: string } }> // 'title' | 'author' | 'author.name'
 */
export type FieldPath<T, D extends number = 5> = [D] extends [never]
  ? never
  : T extends object
    ? {
        [K in keyof T & string]: K | ([Below<T[K]>] extends [never] ? never : `${K}.${FieldPath<Below<T[K]>, Depth[D]>}`);
      }[keyof T & string]
    : never;

/** The type of the value at a field path of T (through arrays: their elements'). */
export type PathValue<T, P extends string> = P extends `${infer K}.${infer Rest}`
  ? K extends keyof T
    ? PathValue<Elem<NonNullable<T[K]>>, Rest>
    : unknown
  : P extends keyof T
    ? T[P]
    : unknown;

/** What a field holding V may be compared with: a scalar of its (element) type, or null (missing or null). */
export type Operand<V> = unknown extends V ? Scalar : Extract<Elem<NonNullable<V>>, string | number | boolean> | null;

/** `$elemMatch` of a field holding V: a filter on the element's fields, or operators on the element itself. */
type ElemMatch<V> = unknown extends V
  ? { [pathOrOperator: string]: unknown }
  : [PlainObject<Elem<NonNullable<V>>>] extends [never]
    ? FieldOperators<Elem<NonNullable<V>>>
    : Filter<PlainObject<Elem<NonNullable<V>>>>;

/** The operators of §1 / §1.1 on a field holding V, each typed with the values it may compare. */
export interface FieldOperators<V = unknown> {
  $eq?: Operand<V>;
  $ne?: Operand<V>;
  $gt?: Operand<V>;
  $gte?: Operand<V>;
  $lt?: Operand<V>;
  $lte?: Operand<V>;
  $in?: readonly Operand<V>[];
  $nin?: readonly Operand<V>[];
  /** An array holding every one of the values. */
  $all?: readonly Operand<V>[];
  $exists?: boolean;
  /** An array of exactly this many elements. */
  $size?: number;
  /** A string starting with this (case-sensitive). */
  $prefix?: string;
  /** A string containing this, ignoring case. */
  $icontains?: string;
  $elemMatch?: ElemMatch<V>;
}

/** One field's condition: a value (equality) or operators. */
export type FieldCondition<V = unknown> = Operand<V> | FieldOperators<V>;

/** A filter on any paths: what `Filter<T>` is for a T that takes any key (the default). */
export type OpenFilter = { [path: string]: unknown; $and?: OpenFilter[]; $or?: OpenFilter[] };

/**
 * A MongoDB-style filter (API.md §1, §1.1), typed against the document type T: only T's field paths
 * (nested ones too) and the system fields `id`, `createdAt`, `updatedAt`, each compared with values of
 * its type. A typo in a path or a value of the wrong type is a compile error. For paths known only at
 * run time, use the collection without a type (`collection('posts')`) or `OpenFilter`: a T with an
 * index signature takes any path.
 *
 * @example
 * interface Post { title: string; status: 'open' | 'done'; tags: string[]; author: { name: string } }
 * const f: Filter<Post> = { status: 'open', tags: { $all: ['a', 'b'] }, 'author.name': { $prefix: 'A' } };
 */
export type Filter<T extends object = Record<string, unknown>> =
  IsOpen<T> extends true
    ? OpenFilter
    : { [P in FieldPath<T>]?: FieldCondition<PathValue<T, P>> } & {
        id?: FieldCondition<string>;
        createdAt?: FieldCondition<string>;
        updatedAt?: FieldCondition<string>;
        $and?: Filter<T>[];
        $or?: Filter<T>[];
      };

/** What a list may sort by: a system field or, for a typed collection, one of T's field paths. */
export type SortField<T extends object = Record<string, unknown>> = 'createdAt' | 'updatedAt' | 'id' | (IsOpen<T> extends true ? string & {} : FieldPath<T>);

/** A T of which only some fields came back (a `fields` projection): every field, nested ones too, optional. */
export type Projected<T> = T extends readonly (infer E)[] ? Projected<E>[] : T extends object ? { [K in keyof T]?: Projected<T[K]> } : T;

type ServerListQuery = QueryParams<'/v1/{collection}/docs', 'get'>;

/** List parameters; `filter` is an object, JSON-encoded by the SDK. */
export interface ListParams<T extends object = Record<string, unknown>> {
  /** 0..1000, default 20; 0 answers the count only (`total`, no documents). */
  limit?: number;
  /** Offset paging; not with `cursor`. */
  offset?: number;
  /** The `nextCursor` of the previous page, with the same sortBy, sortOrder, filter and search. */
  cursor?: string;
  /** `createdAt` (default; with `search`, the rank: best first, ties by id), `updatedAt`, `id` or a field path such as `author.name`. */
  sortBy?: SortField<T>;
  sortOrder?: ServerListQuery['sortOrder'];
  filter?: Filter<T>;
  /**
   * Full-text search: words, ANDed, each matched by prefix and case-insensitively, in the fields the
   * database's `settings.search` names for the collection (else 400 `invalid_filter`); empty: ignored.
   */
  search?: string;
  /** Only these fields (plus id, createdAt, updatedAt). */
  fields?: readonly FieldPath<T>[];
}

/** `GET /collections`: every collection of the database with its document count. */
export type CollectionInfo = ResponseBody<'/v1/collections', 'get', 200>['collections'][number];

/** An end user (§2); never a password hash. */
export type User = ResponseBody<'/v1/auth/me', 'get', 200>['user'];
/** A session (§2): send `token` as X-Session-Token. */
export type Session = ResponseBody<'/v1/auth/refresh', 'post', 200>['session'];
/** A completed sign-in: the user and a session (refresh, the second step, a passkey, a sign-in without a second factor). */
export type AuthResult = ResponseBody<'/v1/auth/refresh', 'post', 200>;
/** The second step a sign-in waits for (§2.2): give `mfa` to `auth.mfa.challenge` with a code. */
export interface MfaRequired {
  user: null;
  session: null;
  mfa: { token: string; expiresAt: string };
}
/**
 * What a sign-in answers (password, magic link, OAuth redirect): signed in, or waiting for the
 * second step when the account has a verified factor (§2.2). `user` and `session` are null until
 * then, so code that reads them must check `mfa` first: the type does not let an app forget it.
 *
 * @example
 *   const r = await svc.auth.signIn({ email, password });
 *   if (r.mfa) await svc.auth.mfa.challenge(r.mfa, { code: prompt('Code') ?? '' });
 */
export type SignInResult = (AuthResult & { mfa?: undefined }) | MfaRequired;
/** A code for the second step: from the authenticator app, or one of the recovery codes. */
export type MfaCode = { code: string } | { recoveryCode: string };
/** `POST /auth/mfa/totp`: a new factor's secret and otpauth URL (show it as a QR code). */
export type TotpEnrolment = ResponseBody<'/v1/auth/mfa/totp', 'post', 201>;
/** `GET /auth/mfa`: the factors (never a secret) and how many recovery codes are left. */
export type MfaFactors = ResponseBody<'/v1/auth/mfa', 'get', 200>;
/** A registered passkey. */
export type Passkey = ResponseBody<'/v1/auth/passkeys', 'get', 200>['passkeys'][number];
export type SignUpParams = RequestBody<'/v1/auth/sign-up', 'post'>;
export type SignInParams = RequestBody<'/v1/auth/sign-in', 'post'>;
export type UpdateUserParams = RequestBody<'/v1/auth/me', 'patch'>;
export type ChangePasswordParams = RequestBody<'/v1/auth/change-password', 'post'>;
export type ForgotPasswordParams = RequestBody<'/v1/auth/forgot-password', 'post'>;
export type ResetPasswordParams = RequestBody<'/v1/auth/reset-password', 'post'>;
export type MagicLinkParams = RequestBody<'/v1/auth/magic-link', 'post'>;
export type VerifyMagicLinkParams = RequestBody<'/v1/auth/magic-link/verify', 'post'>;
/**
 * The answer of sign-up: `session` is null when the database requires a verified e-mail first
 * (settings.auth.requireEmailVerification): a verification link was mailed, sign in after it.
 */
export type SignUpResult = ResponseBody<'/v1/auth/sign-up', 'post', 201>;
/** `email` without a session (ignored with one); `redirectUrl` defaults to the database's siteUrl. */
export type VerifyEmailParams = RequestBody<'/v1/auth/verify-email', 'post'>;
/** The `email` and `token` of a verification link. */
export type ConfirmEmailParams = RequestBody<'/v1/auth/verify-email/confirm', 'post'>;
/** `password`: required when the account has one. */
export type DeleteAccountParams = RequestBody<'/v1/auth/me', 'delete'>;
/** `google` or `github`. */
export type OAuthProvider = QueryPath<'/v1/auth/oauth/{provider}'>['provider'];
type QueryPath<P extends keyof paths> = Operation<P, 'get'> extends { parameters: { path: infer X } } ? X : never;

/** `GET /auth/users`: a page of users, oldest first, and how many match in all (§2.1; secret key). */
export type UserList = ResponseBody<'/v1/auth/users', 'get', 200>;
/** A user as the app's backend reads it (`GET /auth/users/:id`): with `mfa`, whether sign-in asks a second step (§2.2). */
export type ManagedUser = ResponseBody<'/v1/auth/users/{id}', 'get', 200>['user'];
/** `limit`, `offset`, and `email`: a prefix of the e-mail (case-insensitive). */
export type UserListParams = Partial<QueryParams<'/v1/auth/users', 'get'>>;
/** What the app's backend may change on a user (§2.1): `name`, `avatar`, `emailVerified`, `appMetadata` (replaced whole), `disabled`. */
export type AdminUpdateUserParams = RequestBody<'/v1/auth/users/{id}', 'patch'>;

/** A realtime token (§3). */
export type RealtimeToken = ResponseBody<'/v1/realtime/token', 'post', 201>;

/** A webhook (§4); `secret` appears only in `create` and `rotateSecret`. */
export type Webhook = ResponseBody<'/v1/webhooks/{id}', 'get', 200>;
export type CreatedWebhook = ResponseBody<'/v1/webhooks', 'post', 201>;
export type CreateWebhookParams = RequestBody<'/v1/webhooks', 'post'>;
export type UpdateWebhookParams = RequestBody<'/v1/webhooks/{id}', 'patch'>;
export type WebhookSecret = ResponseBody<'/v1/webhooks/{id}/rotate-secret', 'post', 200>;
export type Delivery = ResponseBody<'/v1/webhooks/{id}/deliveries', 'get', 200>['deliveries'][number];
export type DeliveryDetail = ResponseBody<'/v1/webhooks/{id}/deliveries/{deliveryId}', 'get', 200>;
export type DeliveryList = ResponseBody<'/v1/webhooks/{id}/deliveries', 'get', 200>;
export type DeliveriesParams = Partial<QueryParams<'/v1/webhooks/{id}/deliveries', 'get'>>;

/**
 * A field of the signed-in user that a rule compares with (§10): `id`, `email` (only while it is
 * verified), `emailVerified`, or a path into the user's `appMetadata`.
 */
export type AuthField = 'id' | 'email' | 'emailVerified' | `appMetadata.${string}`;

/** `{ $auth: 'id' }` in a rule: that field of the signed-in user, read from the user as it is now. */
export interface AuthOperand {
  $auth: AuthField;
}

/** A value a rule compares a field with: a JSON scalar or a field of the signed-in user. */
export type RuleValue = string | number | boolean | null | AuthOperand;

/** The operators of §1 / §1.1 on one field; a compared value may be a `$auth` operand. */
export interface RuleOperators {
  $eq?: RuleValue;
  $ne?: RuleValue;
  $gt?: RuleValue;
  $gte?: RuleValue;
  $lt?: RuleValue;
  $lte?: RuleValue;
  $in?: RuleValue[];
  $nin?: RuleValue[];
  /** Membership is explicit: `{ members: { $all: [{ $auth: 'id' }] } }`. */
  $all?: RuleValue[];
  $exists?: boolean;
  $size?: number;
  $prefix?: string;
  $icontains?: string;
  $elemMatch?: { [pathOrOperator: string]: unknown };
}

/**
 * A filter rule: the §1 filter language, where a compared value (an implicit equality, `$eq` … `$lte`,
 * an item of `$in`/`$nin`/`$all`) may be `{ $auth: … }`. Never empty.
 */
export type RuleFilter = {
  [path: string]: RuleValue | RuleOperators | RuleFilter[] | undefined;
  $and?: RuleFilter[];
  $or?: RuleFilter[];
};

/**
 * One operation's rule (§10): `true` (anyone with the public key), `false` (nobody; also when
 * absent), `'signedIn'` (any signed-in user of the database) or a filter the document must match.
 */
export type Rule = boolean | 'signedIn' | RuleFilter;

/** A collection's rules: `read` (list, get, realtime events), `create` (insert, bulk), `update`, `delete`. */
export interface RuleEntry {
  read?: Rule;
  create?: Rule;
  update?: Rule;
  delete?: Rule;
}

/**
 * A database's rules, keyed by collection name; `'*'` covers every collection without its own entry
 * (an entry replaces it whole). None set: `{ '*': { read: true } }`.
 *
 * These types are written by hand, narrower than the server's schema (which types a filter rule as
 * any object); test/rules.test.ts checks they stay assignable to the generated one.
 */
export type Rules = { [collection: string]: RuleEntry };

// ---- Safe writes (API.md §1.2) ----

type Paths<T> = IsOpen<T> extends true ? string : FieldPath<T>;
type ValueAt<T, P extends string> = IsOpen<T> extends true ? unknown : PathValue<T, P>;
/** The field paths of T holding a number (what `$inc` takes). */
type NumberPath<T> = IsOpen<T> extends true ? string : { [P in FieldPath<T>]: NonNullable<PathValue<T, P>> extends number ? P : never }[FieldPath<T>];
/** The field paths of T holding an array (what `$push`, `$addToSet` and `$pull` take). */
type ArrayPath<T> =
  IsOpen<T> extends true ? string : { [P in FieldPath<T>]: NonNullable<PathValue<T, P>> extends readonly unknown[] ? P : never }[FieldPath<T>];
type ElementAt<T, P extends string> = IsOpen<T> extends true ? unknown : NonNullable<PathValue<T, P>> extends readonly (infer E)[] ? E : never;

/**
 * An update document (API.md §1.2): operators applied by the server to the document as it is when
 * the write commits, so concurrent updates never lose each other's work. Typed against T: `$inc`
 * names only number fields, `$push` only array fields with their element type.
 *
 * @example
 * await posts.update(id, { $inc: { likes: 1 }, $addToSet: { likedBy: userId } });
 */
export interface UpdateDocument<T extends object = Record<string, unknown>> {
  $set?: { [P in Paths<T>]?: ValueAt<T, P> };
  $unset?: { [P in Paths<T>]?: true };
  $inc?: { [P in NumberPath<T>]?: number };
  $min?: { [P in Paths<T>]?: Extract<ValueAt<T, P>, Scalar> | (unknown extends ValueAt<T, P> ? Scalar : never) };
  $max?: { [P in Paths<T>]?: Extract<ValueAt<T, P>, Scalar> | (unknown extends ValueAt<T, P> ? Scalar : never) };
  $push?: { [P in ArrayPath<T>]?: ElementAt<T, P> | { $each: ElementAt<T, P>[] } };
  $addToSet?: { [P in ArrayPath<T>]?: ElementAt<T, P> | { $each: ElementAt<T, P>[] } };
  /** Removes every element equal to a scalar, or matching a condition as `$elemMatch` reads it (`{ $gt: 5 }`, `{ sku: 'a' }`). */
  $pull?: { [P in ArrayPath<T>]?: Extract<ElementAt<T, P>, Scalar> | Record<string, unknown> };
  /** Sets the write's time (the new `updatedAt`) as an ISO string. */
  $currentDate?: { [P in Paths<T>]?: true };
}

/** A document with its version (API.md §1.2: the id of the event that last wrote it), as `ifMatch` takes it back. */
export interface Versioned<T extends object = Record<string, unknown>> {
  document: Doc<T>;
  version: string;
}

/** One operation of `svc.batch()` (API.md §1.2). `ifMatch`: a version or `'*'`. */
export type BatchOperation =
  | { op: 'create'; collection: string; document: Record<string, unknown> }
  | { op: 'update'; collection: string; id: string; patch: Record<string, unknown> | UpdateDocument; ifMatch?: string }
  | { op: 'delete'; collection: string; id: string; ifMatch?: string }
  | { op: 'check'; collection: string; id: string; ifMatch: string };

/** What each operation of a batch answered, in order: `{201, document, version}`, `{200, document, version}`, `{204}`, `{200, version}`. */
export interface BatchResult {
  status: number;
  document?: Doc;
  version?: string;
}
