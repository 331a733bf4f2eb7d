/**
 * @svc/client: the TypeScript SDK of svc, for browsers and Node ≥ 20.
 * Everything is a named export, so bundlers drop what an application does not use.
 */
export { createClient, SvcClient, type ClientOptions } from './client.js';
export { SvcError, type ErrorDetail } from './errors.js';
export { CollectionService, type ConditionalOptions, type IterateParams } from './collection.js';
export { AuthService, type AuthChangeEvent, type AuthStateListener, type RedirectOptions } from './auth.js';
export { MfaService } from './mfa.js';
export { PasskeyService } from './passkeys.js';
export {
  RealtimeService,
  type RealtimeEvent,
  type RealtimeOptions,
  type RealtimeState,
  type RealtimeStateInfo,
  type SubscribeOptions,
} from './realtime.js';
export { Replica, type ReplicaConflict, type ReplicaEvents, type ReplicaOptions, type ReplicaQuery } from './replica/replica.js';
export { MemoryStorage, FileStorage, type HeldDoc, type QueuedWrite, type ReplicaState, type ReplicaStorage } from './replica/storage.js';
export { IndexedDbStorage } from './replica/indexeddb.js';
export { RulesService } from './rules.js';
export { FilesService, type FileRecord, type FileList, type FileListParams, type UploadBody, type UploadOptions, type UrlOptions } from './files.js';
export { UsersService } from './users.js';
export { WebhooksService } from './webhooks.js';
export { verifyWebhook } from './verify-webhook.js';
export {
  MemorySessionStore,
  LocalStorageSessionStore,
  defaultSessionStore,
  type SessionStore,
  type StoredSession,
} from './session-store.js';
export type { CallOptions, FetchLike, RetryOptions, Sender, SendOptions, WriteOptions } from './http.js';
export type { WebSocketConstructor, WebSocketLike } from './websocket.js';
export type * from './types.js';
export type { paths as ApiPaths } from './generated/api.js';
