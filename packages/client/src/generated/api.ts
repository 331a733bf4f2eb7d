/**
 * Generated from the server's route schemas (GET /v1/openapi.json) by scripts/generate-types.ts.
 * Do not edit: run `npm run generate -w @svc/client`. A test fails when this file is stale.
 */
export interface paths {
    "/v1/{collection}/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Insert several documents, all or nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    collection: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        documents: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            documents: ({
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Sortable by creation time unless chosen by the client */
                                id: string;
                                /** Format: date-time */
                                updatedAt: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{collection}/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List documents */
        get: {
            parameters: {
                query: {
                    /** @description The `nextCursor` of the previous page, with the same sortBy, sortOrder, filter and search */
                    cursor?: string;
                    /** @description Only these field paths (comma-separated), plus id, createdAt, updatedAt */
                    fields?: string;
                    /** @description URL-encoded JSON, MongoDB-style: {"status":"open","score":{"$gte":10}} */
                    filter?: string;
                    /** @description 0: count only (no documents, just `total`) */
                    limit: number;
                    /** @description Default 0, at most 10,000,000; not with `cursor` */
                    offset?: number;
                    /** @description Full-text search of the collection's search fields: words ANDed, each by prefix, case-insensitive; empty: ignored */
                    search?: string;
                    /** @description createdAt (default), updatedAt, id or a field path such as author.name; with search, the default is relevance */
                    sortBy?: string;
                    sortOrder: "asc" | "desc";
                };
                header?: never;
                path: {
                    collection: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            documents: ({
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Sortable by creation time unless chosen by the client */
                                id: string;
                                /** Format: date-time */
                                updatedAt: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            limit: number;
                            /** @description Pass as `cursor` for the next page; null on the last page */
                            nextCursor: string | null;
                            offset: number;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Insert a document */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    collection: string;
                };
                cookie?: never;
            };
            /** @description A JSON object; an optional `id` of 1–128 [A-Za-z0-9_-] */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description The user's fields, flat beside the system fields */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Sortable by creation time unless chosen by the client */
                            id: string;
                            /** Format: date-time */
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{collection}/docs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a document
         * @description ETag: the version. If-None-Match naming it: 304 with no body.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only these field paths (comma-separated), plus id, createdAt, updatedAt */
                    fields?: string;
                };
                header?: never;
                path: {
                    collection: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user's fields, flat beside the system fields */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Sortable by creation time unless chosen by the client */
                            id: string;
                            /** Format: date-time */
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description No content */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a document
         * @description If-Match: 412 unless the current version is named.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    collection: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description The current version is in the ETag header */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The user's fields, flat beside the system fields */
                            document: {
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Sortable by creation time unless chosen by the client */
                                id: string;
                                /** Format: date-time */
                                updatedAt: string;
                            } & {
                                [key: string]: unknown;
                            };
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Update a document (JSON Merge Patch, or an update document of operators such as $inc)
         * @description A merge patch, or an update document whose top-level keys are all operators ($set, $unset, $inc, $min, $max, $push, $addToSet, $pull, $currentDate). If-Match: 412 unless the current version is named. 204 with no body: the update was applied, but the collection's read rule hides the result from this public-key caller.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    collection: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Appends each value not already present */
                        $addToSet?: {
                            [key: string]: unknown | {
                                $each: unknown[];
                            };
                        };
                        /** @description Sets the write's time as an ISO string */
                        $currentDate?: {
                            [key: string]: true;
                        };
                        /** @description Adds the number (a missing field starts from 0) */
                        $inc?: {
                            [key: string]: number;
                        };
                        /** @description Sets the value if higher, or missing */
                        $max?: {
                            [key: string]: string | number | boolean | null;
                        };
                        /** @description Sets the value if lower, or missing */
                        $min?: {
                            [key: string]: string | number | boolean | null;
                        };
                        /** @description Removes every element equal to the scalar or matching the condition */
                        $pull?: {
                            [key: string]: unknown;
                        };
                        /** @description Appends to the array */
                        $push?: {
                            [key: string]: unknown | {
                                $each: unknown[];
                            };
                        };
                        /** @description Sets each path to the value */
                        $set?: {
                            [key: string]: unknown;
                        };
                        /** @description Removes each path */
                        $unset?: {
                            [key: string]: true;
                        };
                    } | {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description The user's fields, flat beside the system fields */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Sortable by creation time unless chosen by the client */
                            id: string;
                            /** Format: date-time */
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description The current version is in the ETag header */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The user's fields, flat beside the system fields */
                            document: {
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Sortable by creation time unless chosen by the client */
                                id: string;
                                /** Format: date-time */
                                updatedAt: string;
                            } & {
                                [key: string]: unknown;
                            };
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/admin/databases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List databases */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            databases: {
                                createdAt: string;
                                id: string;
                                name: string;
                                settings: {
                                    auth: {
                                        /** @description false: no path (sign-up, magic link, OAuth) creates an account */
                                        allowSignUp: boolean;
                                        /** @description The issuer authenticator apps show for TOTP factors (default: the database's name) */
                                        mfaIssuer?: string;
                                        /** @description The WebAuthn relying party of passkeys (default: rpId the host of siteUrl, origins its origin) */
                                        passkeys?: {
                                            origins?: string[];
                                            rpId?: string;
                                            rpName?: string;
                                        };
                                        /** @description true: sign-up mails a verification link and starts no session; unverified password sign-in → 403 */
                                        requireEmailVerification: boolean;
                                    };
                                    email?: {
                                        /** @description {APP_NAME} in templates; default: the database name */
                                        appName?: string;
                                        from?: string;
                                        /** @description Whether the database sends through its own SMTP server (the URL itself is write-only) */
                                        smtpUrlSet: boolean;
                                        templates?: {
                                            magicLink?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            resetPassword?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            verifyEmail?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                        };
                                    };
                                    /** @description Files (§12): bucket → {maxSize, contentTypes, thumbs, public} */
                                    files?: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    oauth: {
                                        apple?: {
                                            clientId: string | null;
                                            keyId: string | null;
                                            privateKeySet: boolean;
                                            teamId: string | null;
                                        };
                                        discord?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        facebook?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        github?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        gitlab?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        google?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        microsoft?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            /** @description null: common (any Microsoft account) */
                                            tenant: string | null;
                                        };
                                        oidc?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            issuer: string | null;
                                            name: string | null;
                                        };
                                        x?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                    };
                                    redirectUrls: string[];
                                    /** @description Full-text search: collection → the field paths search= looks in */
                                    search?: {
                                        [key: string]: string[];
                                    };
                                    siteUrl: string | null;
                                };
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a database, its first secret key (shown once) and its first public key */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database: {
                                createdAt: string;
                                id: string;
                                name: string;
                                settings: {
                                    auth: {
                                        /** @description false: no path (sign-up, magic link, OAuth) creates an account */
                                        allowSignUp: boolean;
                                        /** @description The issuer authenticator apps show for TOTP factors (default: the database's name) */
                                        mfaIssuer?: string;
                                        /** @description The WebAuthn relying party of passkeys (default: rpId the host of siteUrl, origins its origin) */
                                        passkeys?: {
                                            origins?: string[];
                                            rpId?: string;
                                            rpName?: string;
                                        };
                                        /** @description true: sign-up mails a verification link and starts no session; unverified password sign-in → 403 */
                                        requireEmailVerification: boolean;
                                    };
                                    email?: {
                                        /** @description {APP_NAME} in templates; default: the database name */
                                        appName?: string;
                                        from?: string;
                                        /** @description Whether the database sends through its own SMTP server (the URL itself is write-only) */
                                        smtpUrlSet: boolean;
                                        templates?: {
                                            magicLink?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            resetPassword?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            verifyEmail?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                        };
                                    };
                                    /** @description Files (§12): bucket → {maxSize, contentTypes, thumbs, public} */
                                    files?: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    oauth: {
                                        apple?: {
                                            clientId: string | null;
                                            keyId: string | null;
                                            privateKeySet: boolean;
                                            teamId: string | null;
                                        };
                                        discord?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        facebook?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        github?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        gitlab?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        google?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        microsoft?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            /** @description null: common (any Microsoft account) */
                                            tenant: string | null;
                                        };
                                        oidc?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            issuer: string | null;
                                            name: string | null;
                                        };
                                        x?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                    };
                                    redirectUrls: string[];
                                    /** @description Full-text search: collection → the field paths search= looks in */
                                    search?: {
                                        [key: string]: string[];
                                    };
                                    siteUrl: string | null;
                                };
                                updatedAt: string;
                            };
                            key: {
                                createdAt: string;
                                id: string;
                                /** @description A secret key is shown here once; a public key can be listed again */
                                key: string;
                                kind: "secret" | "public";
                                name: string | null;
                            };
                            publicKey: {
                                createdAt: string;
                                id: string;
                                /** @description A secret key is shown here once; a public key can be listed again */
                                key: string;
                                kind: "secret" | "public";
                                name: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/databases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a database */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database: {
                                createdAt: string;
                                id: string;
                                name: string;
                                settings: {
                                    auth: {
                                        /** @description false: no path (sign-up, magic link, OAuth) creates an account */
                                        allowSignUp: boolean;
                                        /** @description The issuer authenticator apps show for TOTP factors (default: the database's name) */
                                        mfaIssuer?: string;
                                        /** @description The WebAuthn relying party of passkeys (default: rpId the host of siteUrl, origins its origin) */
                                        passkeys?: {
                                            origins?: string[];
                                            rpId?: string;
                                            rpName?: string;
                                        };
                                        /** @description true: sign-up mails a verification link and starts no session; unverified password sign-in → 403 */
                                        requireEmailVerification: boolean;
                                    };
                                    email?: {
                                        /** @description {APP_NAME} in templates; default: the database name */
                                        appName?: string;
                                        from?: string;
                                        /** @description Whether the database sends through its own SMTP server (the URL itself is write-only) */
                                        smtpUrlSet: boolean;
                                        templates?: {
                                            magicLink?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            resetPassword?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            verifyEmail?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                        };
                                    };
                                    /** @description Files (§12): bucket → {maxSize, contentTypes, thumbs, public} */
                                    files?: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    oauth: {
                                        apple?: {
                                            clientId: string | null;
                                            keyId: string | null;
                                            privateKeySet: boolean;
                                            teamId: string | null;
                                        };
                                        discord?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        facebook?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        github?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        gitlab?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        google?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        microsoft?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            /** @description null: common (any Microsoft account) */
                                            tenant: string | null;
                                        };
                                        oidc?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            issuer: string | null;
                                            name: string | null;
                                        };
                                        x?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                    };
                                    redirectUrls: string[];
                                    /** @description Full-text search: collection → the field paths search= looks in */
                                    search?: {
                                        [key: string]: string[];
                                    };
                                    siteUrl: string | null;
                                };
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a database and everything in it */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a database or merge its settings */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description JSON Merge Patch of {redirectUrls, siteUrl, oauth: {google|github|discord|gitlab|facebook|x: {clientId, clientSecret}, microsoft: {clientId, clientSecret, tenant}, apple: {clientId, teamId, keyId, privateKey}, oidc: {issuer, clientId, clientSecret, name}}, email: {smtpUrl, from, appName, templates}} */
                        settings?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database: {
                                createdAt: string;
                                id: string;
                                name: string;
                                settings: {
                                    auth: {
                                        /** @description false: no path (sign-up, magic link, OAuth) creates an account */
                                        allowSignUp: boolean;
                                        /** @description The issuer authenticator apps show for TOTP factors (default: the database's name) */
                                        mfaIssuer?: string;
                                        /** @description The WebAuthn relying party of passkeys (default: rpId the host of siteUrl, origins its origin) */
                                        passkeys?: {
                                            origins?: string[];
                                            rpId?: string;
                                            rpName?: string;
                                        };
                                        /** @description true: sign-up mails a verification link and starts no session; unverified password sign-in → 403 */
                                        requireEmailVerification: boolean;
                                    };
                                    email?: {
                                        /** @description {APP_NAME} in templates; default: the database name */
                                        appName?: string;
                                        from?: string;
                                        /** @description Whether the database sends through its own SMTP server (the URL itself is write-only) */
                                        smtpUrlSet: boolean;
                                        templates?: {
                                            magicLink?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            resetPassword?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                            verifyEmail?: {
                                                html?: string;
                                                subject?: string;
                                                text?: string;
                                            };
                                        };
                                    };
                                    /** @description Files (§12): bucket → {maxSize, contentTypes, thumbs, public} */
                                    files?: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    oauth: {
                                        apple?: {
                                            clientId: string | null;
                                            keyId: string | null;
                                            privateKeySet: boolean;
                                            teamId: string | null;
                                        };
                                        discord?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        facebook?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        github?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        gitlab?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        google?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                        microsoft?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            /** @description null: common (any Microsoft account) */
                                            tenant: string | null;
                                        };
                                        oidc?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                            issuer: string | null;
                                            name: string | null;
                                        };
                                        x?: {
                                            clientId: string | null;
                                            clientSecretSet: boolean;
                                        };
                                    };
                                    redirectUrls: string[];
                                    /** @description Full-text search: collection → the field paths search= looks in */
                                    search?: {
                                        [key: string]: string[];
                                    };
                                    siteUrl: string | null;
                                };
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/admin/databases/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (hints; public keys whole) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                createdAt: string;
                                /** @description The prefix and last 4 characters */
                                hint: string;
                                id: string;
                                /** @description Public keys only: the whole key, shown any time (absent for public keys created before public keys were kept: those were stored hashed) */
                                key?: string;
                                kind: "secret" | "public";
                                lastUsedAt: string | null;
                                name: string | null;
                                revokedAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API key (a secret key is shown once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        kind: "secret" | "public";
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            /** @description A secret key is shown here once; a public key can be listed again */
                            key: string;
                            kind: "secret" | "public";
                            name: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/databases/{id}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/databases/{id}/rotate-file-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new key for a database's file links: every link made before stops working */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/databases/{id}/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One end user with its live session count and linked providers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            activeSessions: number;
                            providers: string[];
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/databases/{id}/users/{userId}/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End every session of an end user (sign out everywhere) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endedSessions: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in operator, and the address users reach (PUBLIC_URL: OAuth callbacks are built from it) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            operator: {
                                createdAt: string;
                                email: string;
                                id: string;
                            };
                            publicUrl: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/mfa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The operator's factors */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            factors: {
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                /** @enum {string} */
                                type: "totp";
                                verified: boolean;
                            }[];
                            recoveryCodesLeft: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/mfa/{factorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a factor, with a current code */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    factorId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A current 6-digit TOTP code, or a recovery code */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/mfa/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a two-step operator sign-in */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        mfaToken: string;
                    } | {
                        mfaToken: string;
                        recoveryCode: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            operator: {
                                createdAt: string;
                                email: string;
                                id: string;
                            };
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/mfa/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enrol a TOTP factor for this operator */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            factorId: string;
                            /** @description otpauth://totp/… for an authenticator app (show it as a QR code) */
                            otpauthUrl: string;
                            /** @description Base32 (RFC 4648), 160 bits: shown this once */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/mfa/totp/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate the operator's TOTP factor; 10 recovery codes, shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        factorId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Shown this once: each signs in once instead of a TOTP code */
                            recoveryCodes: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create another operator */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The caller's current TOTP or recovery code, when the caller has a second factor */
                        code?: string;
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            operator: {
                                createdAt: string;
                                email: string;
                                id: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the instance still needs its first operator */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            needsSetup: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create the first operator with the setup token printed in the server log */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                        setupToken: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present only when a second step is due: complete the sign-in with POST /auth/mfa/challenge */
                            mfa?: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it to the challenge with a code */
                                token: string;
                            };
                            operator?: {
                                createdAt: string;
                                email: string;
                                id: string;
                            };
                            /** @description null while a second step is due (API.md §2.2): then see mfa */
                            token: null | string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Operator sign-in */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present only when a second step is due: complete the sign-in with POST /auth/mfa/challenge */
                            mfa?: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it to the challenge with a code */
                                token: string;
                            };
                            operator?: {
                                createdAt: string;
                                email: string;
                                id: string;
                            };
                            /** @description null while a second step is due (API.md §2.2): then see mfa */
                            token: null | string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End this operator session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password; ends every other session */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        currentPassword: string;
                        /** @description 8 to 256 characters, else 400 weak_password */
                        newPassword: string;
                    };
                };
            };
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a password-reset link (valid 1 hour) if the account exists */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        /** @description Where the link points; default: the database's siteUrl */
                        redirectUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Accepted; the e-mail, if any, is sent in the background */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/magic-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a sign-in link (valid 15 minutes) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        /** @description Where the link points */
                        redirectUrl: string;
                    };
                };
            };
            responses: {
                /** @description Accepted; the e-mail, if any, is sent in the background */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/magic-link/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with the token of a magic link (creates the account if needed) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        /** @description The token of the link in the e-mail */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present only when a second step is due: complete the sign-in with POST /auth/mfa/challenge */
                            mfa?: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it to the challenge with a code */
                                token: string;
                            };
                            session: null | {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it as X-Session-Token */
                                token: string;
                            };
                            user: null | {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete the signed-in account with its sessions and identities (its documents stay) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The account's password; required when it has one */
                        password?: string;
                    };
                };
            };
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change the signed-in user's name or avatar */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        avatar?: null | string;
                        name?: null | string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/auth/mfa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's factors (never a secret) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            factors: {
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                /** @enum {string} */
                                type: "totp";
                                verified: boolean;
                            }[];
                            recoveryCodesLeft: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/{factorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a factor, with a current TOTP code or a recovery code */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path: {
                    factorId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A current 6-digit TOTP code, or a recovery code */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a two-step sign-in: the mfaToken of the first step and a TOTP code or a recovery code */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        mfaToken: string;
                    } | {
                        mfaToken: string;
                        recoveryCode: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            session: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it as X-Session-Token */
                                token: string;
                            };
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New recovery codes (the old ones stop working), with a current code */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A current 6-digit TOTP code, or a recovery code */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Shown this once: each signs in once instead of a TOTP code */
                            recoveryCodes: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enrol a TOTP factor (unverified until /auth/mfa/totp/verify) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            factorId: string;
                            /** @description otpauth://totp/… for an authenticator app (show it as a QR code) */
                            otpauthUrl: string;
                            /** @description Base32 (RFC 4648), 160 bits: shown this once */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/totp/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate the TOTP factor with a code; answers 10 recovery codes, shown once */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        factorId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Shown this once: each signs in once instead of a TOTP code */
                            recoveryCodes: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oauth/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start signing in with an OAuth provider (docs/oauth.md) or the OpenID Connect provider (a browser navigation; the public key goes in the query) */
        get: {
            parameters: {
                query: {
                    /** @description A public key (svc_pk_…); a secret key here is refused */
                    key?: string;
                    /** @description An allowed redirect URL: where the user comes back with ?token= or ?error= */
                    redirectUrl: string;
                };
                header?: never;
                path: {
                    provider: "google" | "github" | "apple" | "microsoft" | "discord" | "gitlab" | "facebook" | "x" | "oidc";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (see Location) */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oauth/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The provider's redirect back: on to redirectUrl?token= or ?error= */
        get: {
            parameters: {
                query?: {
                    code?: string;
                    error?: string;
                    /** @description OpenID Connect: the issuer, when it says so in its answer (RFC 9207) */
                    iss?: string;
                    state?: string;
                };
                header?: never;
                path: {
                    provider: "google" | "github" | "apple" | "microsoft" | "discord" | "gitlab" | "facebook" | "x" | "oidc";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (see Location) */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oauth/apple/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Apple's form post back: on to the GET callback with the same code and state */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Apple's form post: code, state, error (and, the first time, `user`, which is not kept) */
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        code?: string;
                        error?: string;
                        state?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Redirect to the GET callback */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's passkeys */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            passkeys: {
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                lastUsedAt: null | string;
                                name: null | string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a passkey */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a passkey from the authenticator's answer */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description RegistrationResponseJSON */
                        response: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            passkey: {
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                lastUsedAt: null | string;
                                name: null | string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys/register/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Options for navigator.credentials.create() (a fresh session with a verified e-mail) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description PublicKeyCredentialCreationOptionsJSON */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a passkey (complete: no second step) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        challengeId: string;
                        /** @description AuthenticationResponseJSON */
                        response: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            session: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it as X-Session-Token */
                                token: string;
                            };
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys/sign-in/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A challenge for navigator.credentials.get() (discoverable credentials: no e-mail asked) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            challengeId: string;
                            /** @description PublicKeyCredentialRequestOptionsJSON */
                            options: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Extend the session to now + its lifetime (same token) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            session: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it as X-Session-Token */
                                token: string;
                            };
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the token of a reset link; ends every session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        /** @description 8 to 256 characters, else 400 weak_password */
                        newPassword: string;
                        /** @description The token of the link in the e-mail */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password (with a second factor: mfa.token for POST /auth/mfa/challenge, and no session yet) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present only when a second step is due: complete the sign-in with POST /auth/mfa/challenge */
                            mfa?: {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it to the challenge with a code */
                                token: string;
                            };
                            session: null | {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it as X-Session-Token */
                                token: string;
                            };
                            user: null | {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the session in X-Session-Token */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account with a password and sign in (session null when the database requires a verified e-mail first) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        name?: null | string;
                        /** @description 8 to 256 characters, else 400 weak_password */
                        password: string;
                        /** @description Where the verification link points when the database requires verified e-mails; default: the siteUrl setting */
                        redirectUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description null when the database requires a verified e-mail first: a verification link was mailed */
                            session: null | {
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description Send it as X-Session-Token */
                                token: string;
                            };
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the database's users, oldest first; `email` keeps those whose e-mail starts with it (secret key) */
        get: {
            parameters: {
                query?: {
                    /** @description Keeps the users whose e-mail starts with this (case-insensitive) */
                    email?: string;
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Users matching `email`, all pages */
                            total: number;
                            users: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                /** @description Whether the user has a verified second factor */
                                mfa: boolean;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user, with mfa (secret key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The user id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                /** @description Whether the user has a verified second factor */
                                mfa: boolean;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a user with its sessions, realtime tokens and identities; its documents stay (secret key) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The user id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a user: name, avatar, emailVerified, appMetadata (replaced whole), disabled (secret key) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The user id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Replaces the stored object whole; at most 16 KiB as JSON (else 413) */
                        appMetadata?: {
                            [key: string]: unknown;
                        };
                        avatar?: null | string;
                        /** @description true ends every session and realtime socket of the user and refuses sign-in */
                        disabled?: boolean;
                        emailVerified?: boolean;
                        name?: null | string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/auth/users/{id}/mfa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove every factor, recovery code and passkey of a user and end their sessions (an app's support desk; secret key) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The user id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail an e-mail-verification link (valid 24 hours): to the signed-in user, or to `email` if its account is unverified */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session token of the signed-in user */
                    "x-session-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Without X-Session-Token: the address to verify (ignored with one) */
                        email?: string;
                        /** @description Where the link points; default: the database's siteUrl */
                        redirectUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Accepted; the e-mail, if any, is sent in the background */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark the account's e-mail verified with the token of a verification link (sessions stay as they are); an account with a password also sends it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and lower-cased */
                        email: string;
                        /** @description The account's password; required when it has one */
                        password?: string;
                        /** @description The token of the link in the e-mail */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description An end user of the database (never a password hash) */
                            user: {
                                /** @description The app's data about the user (roles, plan, team): set only with a secret key; rules read it */
                                appMetadata: {
                                    [key: string]: unknown;
                                };
                                avatar: null | string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description A disabled user cannot sign in and has no session */
                                disabled: boolean;
                                email: string;
                                emailVerified: boolean;
                                id: string;
                                name: null | string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Several writes and checks, all or nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        operations: ({
                            collection: string;
                            /** @description A JSON object; an optional `id` of 1–128 [A-Za-z0-9_-] */
                            document: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            op: "create";
                        } | {
                            collection: string;
                            id: string;
                            /** @description A bare version, or "*" */
                            ifMatch?: string;
                            /** @enum {string} */
                            op: "update";
                            patch: {
                                /** @description Appends each value not already present */
                                $addToSet?: {
                                    [key: string]: unknown | {
                                        $each: unknown[];
                                    };
                                };
                                /** @description Sets the write's time as an ISO string */
                                $currentDate?: {
                                    [key: string]: true;
                                };
                                /** @description Adds the number (a missing field starts from 0) */
                                $inc?: {
                                    [key: string]: number;
                                };
                                /** @description Sets the value if higher, or missing */
                                $max?: {
                                    [key: string]: string | number | boolean | null;
                                };
                                /** @description Sets the value if lower, or missing */
                                $min?: {
                                    [key: string]: string | number | boolean | null;
                                };
                                /** @description Removes every element equal to the scalar or matching the condition */
                                $pull?: {
                                    [key: string]: unknown;
                                };
                                /** @description Appends to the array */
                                $push?: {
                                    [key: string]: unknown | {
                                        $each: unknown[];
                                    };
                                };
                                /** @description Sets each path to the value */
                                $set?: {
                                    [key: string]: unknown;
                                };
                                /** @description Removes each path */
                                $unset?: {
                                    [key: string]: true;
                                };
                            } | {
                                [key: string]: unknown;
                            };
                        } | {
                            collection: string;
                            id: string;
                            /** @description A bare version, or "*" */
                            ifMatch?: string;
                            /** @enum {string} */
                            op: "delete";
                        } | {
                            collection: string;
                            id: string;
                            /** @description A bare version, or "*" */
                            ifMatch: string;
                            /** @enum {string} */
                            op: "check";
                        })[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                document?: {
                                    [key: string]: unknown;
                                };
                                status: number;
                                version?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                    version?: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/buckets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Buckets with their file counts and bytes */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            buckets: {
                                bytes?: number;
                                count: number;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Collections with their document counts
         * @description With a public key, only the collections whose read rule is true.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            collections: {
                                count: number;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{bucket}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List files */
        get: {
            parameters: {
                query: {
                    /** @description The `nextCursor` of the previous page, with the same sortBy, sortOrder, filter and search */
                    cursor?: string;
                    /** @description Only these field paths (comma-separated), plus id, createdAt, updatedAt */
                    fields?: string;
                    /** @description URL-encoded JSON, MongoDB-style: {"status":"open","score":{"$gte":10}} */
                    filter?: string;
                    /** @description 0: count only (no documents, just `total`) */
                    limit: number;
                    /** @description Default 0, at most 10,000,000; not with `cursor` */
                    offset?: number;
                    /** @description Full-text search of the collection's search fields: words ANDed, each by prefix, case-insensitive; empty: ignored */
                    search?: string;
                    /** @description createdAt (default), updatedAt, id or a field path such as author.name; with search, the default is relevance */
                    sortBy?: string;
                    sortOrder: "asc" | "desc";
                };
                header?: never;
                path: {
                    bucket: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                bucket: string;
                                contentType: string;
                                createdAt: string;
                                id: string;
                                metadata: {
                                    [key: string]: unknown;
                                };
                                name: string;
                                owner: string | null;
                                sha256: string;
                                size: number;
                                updatedAt: string;
                            }[];
                            limit: number;
                            nextCursor: string | null;
                            offset: number;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Upload a file (multipart: a metadata part, then one file part; or the raw bytes) */
        post: {
            parameters: {
                query?: {
                    /** @description The file's name; else the file part's filename */
                    name?: string;
                    /** @description Secret keys only: the id of the user the file belongs to */
                    owner?: string;
                };
                header?: never;
                path: {
                    bucket: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bucket: string;
                            contentType: string;
                            createdAt: string;
                            id: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            owner: string | null;
                            sha256: string;
                            size: number;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{bucket}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a file record */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    bucket: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bucket: string;
                            contentType: string;
                            createdAt: string;
                            id: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            owner: string | null;
                            sha256: string;
                            size: number;
                            updatedAt: string;
                        };
                    };
                };
                /** @description No content */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a file */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    bucket: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            file?: {
                                bucket: string;
                                contentType: string;
                                createdAt: string;
                                id: string;
                                metadata: {
                                    [key: string]: unknown;
                                };
                                name: string;
                                owner: string | null;
                                sha256: string;
                                size: number;
                                updatedAt: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a file or replace its metadata */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    bucket: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bucket: string;
                            contentType: string;
                            createdAt: string;
                            id: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            owner: string | null;
                            sha256: string;
                            size: number;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            file?: {
                                bucket: string;
                                contentType: string;
                                createdAt: string;
                                id: string;
                                metadata: {
                                    [key: string]: unknown;
                                };
                                name: string;
                                owner: string | null;
                                sha256: string;
                                size: number;
                                updatedAt: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/files/{bucket}/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file's bytes (or a thumbnail) */
        get: {
            parameters: {
                query?: {
                    /** @description 1: always as an attachment */
                    download?: string;
                    /** @description WxH (crop to fill), WxHf (fit inside), Wx0 or 0xH: 100x100 or a size the bucket lists */
                    thumb?: string;
                    /** @description A signed link token (POST …/url) */
                    token?: string;
                };
                header?: never;
                path: {
                    bucket: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** A file's bytes (or a thumbnail) */
        head: {
            parameters: {
                query?: {
                    /** @description 1: always as an attachment */
                    download?: string;
                    /** @description WxH (crop to fill), WxHf (fit inside), Wx0 or 0xH: 100x100 or a size the bucket lists */
                    thumb?: string;
                    /** @description A signed link token (POST …/url) */
                    token?: string;
                };
                header?: never;
                path: {
                    bucket: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        patch?: never;
        trace?: never;
    };
    "/v1/files/{bucket}/{id}/url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed link to the bytes */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    bucket: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        download?: boolean;
                        /** @default 3600 */
                        expiresIn?: number;
                        thumb?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/{databaseId}/{bucket}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A public bucket's file, for anyone */
        get: {
            parameters: {
                query?: {
                    /** @description 1: always as an attachment */
                    download?: string;
                    /** @description WxH (crop to fill), WxHf (fit inside), Wx0 or 0xH: 100x100 or a size the bucket lists */
                    thumb?: string;
                    /** @description A signed link token (POST …/url) */
                    token?: string;
                };
                header?: never;
                path: {
                    bucket: string;
                    databaseId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** A public bucket's file, for anyone */
        head: {
            parameters: {
                query?: {
                    /** @description 1: always as an attachment */
                    download?: string;
                    /** @description WxH (crop to fill), WxHf (fit inside), Wx0 or 0xH: 100x100 or a size the bucket lists */
                    thumb?: string;
                    /** @description A signed link token (POST …/url) */
                    token?: string;
                };
                header?: never;
                path: {
                    bucket: string;
                    databaseId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        patch?: never;
        trace?: never;
    };
    "/v1/realtime/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A token for the realtime WebSocket (1 hour, up to 100 sockets at once; they close with 4401 when its key or session ends)
         * @description With a public key and an X-Session-Token the token belongs to that user: its sockets receive only the events the collections' read rules let the user see, and close when the session ends. With a public key alone it belongs to nobody. A secret key or an operator is not subject to rules (a session token is then ignored).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        collections: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            expiresAt: string;
                            token: string;
                            /** @description ws(s)://HOST/v1/realtime?token=…; add &after=<event id> to resume */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The access rules of public keys, as last written ({"*": {"read": true}} when none were set) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rules: {
                                [key: string]: {
                                    create?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                    /** @description Top-level fields a public-key create fills in when its body lacks them: a constant or {"$auth": …} (left out when the user has none) */
                                    defaults?: {
                                        [key: string]: unknown;
                                    };
                                    delete?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                    read?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                    update?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        /** Replace the access rules whole; they apply at once */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description { "<collection>" | "*": { "read"?, "create"?, "update"?, "delete"?: true | false | "signedIn" | filter, "defaults"?: { "<field>": constant | {"$auth": …} } } } */
                        rules: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rules: {
                                [key: string]: {
                                    create?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                    /** @description Top-level fields a public-key create fills in when its body lacks them: a constant or {"$auth": …} (left out when the user has none) */
                                    defaults?: {
                                        [key: string]: unknown;
                                    };
                                    delete?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                    read?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                    update?: boolean | "signedIn" | {
                                        [key: string]: unknown;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sync/{collection}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Snapshot or catch up a copy of a collection (offline-first replicas) */
        get: {
            parameters: {
                query: {
                    /** @description Catch up from this checkpoint of an earlier answer */
                    checkpoint?: string;
                    /** @description The nextCursor of the previous snapshot page */
                    cursor?: string;
                    /** @description URL-encoded JSON filter (§1, §1.1): the part of the collection to keep */
                    filter?: string;
                    /** @description Changes per answer */
                    limit: number;
                };
                header?: never;
                path: {
                    collection: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changes: {
                                document?: {
                                    [key: string]: unknown;
                                };
                                id: string;
                                op: "upsert" | "delete";
                                version: string;
                            }[];
                            checkpoint: string | null;
                            lastEventId: string | null;
                            nextCursor: string | null;
                            reset: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhooks */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhooks: {
                                collections: string[];
                                /** Format: date-time */
                                createdAt: string;
                                description: null | string;
                                /** @description Why the service disabled the webhook by itself (repeated failures); null otherwise */
                                disabledReason: string | null;
                                enabled: boolean;
                                events: string[];
                                id: string;
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a webhook (the answer holds its secret) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Empty or absent: every collection */
                        collections?: string[];
                        description?: null | string;
                        /** @description Default ["*"] */
                        events?: ("document.created" | "document.updated" | "document.deleted" | "file.created" | "file.updated" | "file.deleted" | "*")[];
                        /** @description http or https; must not resolve to a loopback, private, link-local or metadata address unless WEBHOOK_ALLOW_PRIVATE_URLS=true */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            collections: string[];
                            /** Format: date-time */
                            createdAt: string;
                            description: null | string;
                            /** @description Why the service disabled the webhook by itself (repeated failures); null otherwise */
                            disabledReason: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            /** @description whsec_<base64>; shown only here and by rotate-secret */
                            secret: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            collections: string[];
                            /** Format: date-time */
                            createdAt: string;
                            description: null | string;
                            /** @description Why the service disabled the webhook by itself (repeated failures); null otherwise */
                            disabledReason: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a webhook and its deliveries */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a webhook (url, events, collections, description, enabled) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Empty or absent: every collection */
                        collections?: string[];
                        description?: null | string;
                        enabled?: boolean;
                        /** @description Default ["*"] */
                        events?: ("document.created" | "document.updated" | "document.deleted" | "file.created" | "file.updated" | "file.deleted" | "*")[];
                        /** @description http or https; must not resolve to a loopback, private, link-local or metadata address unless WEBHOOK_ALLOW_PRIVATE_URLS=true */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            collections: string[];
                            /** Format: date-time */
                            createdAt: string;
                            description: null | string;
                            /** @description Why the service disabled the webhook by itself (repeated failures); null otherwise */
                            disabledReason: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of a webhook, newest first */
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                    status?: "pending" | "succeeded" | "failed";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                attempts: number;
                                /** Format: date-time */
                                createdAt: string;
                                event: string;
                                eventId: string;
                                /** @description Also the X-Service-Delivery and webhook-id headers of every attempt */
                                id: string;
                                lastAttemptAt: string | null;
                                nextAttemptAt: string | null;
                                responseStatus: number | null;
                                status: "pending" | "succeeded" | "failed";
                                webhookId: string;
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A delivery with its attempt log */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deliveryId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attemptLog: {
                                /** Format: date-time */
                                at: string;
                                durationMs: number;
                                error: string | null;
                                responseBody: string | null;
                                responseStatus: number | null;
                            }[];
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            event: string;
                            eventId: string;
                            /** @description Also the X-Service-Delivery and webhook-id headers of every attempt */
                            id: string;
                            lastAttemptAt: string | null;
                            nextAttemptAt: string | null;
                            responseStatus: number | null;
                            status: "pending" | "succeeded" | "failed";
                            webhookId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a finished delivery again (409 while it is pending) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deliveryId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                attempts: number;
                                /** Format: date-time */
                                createdAt: string;
                                event: string;
                                eventId: string;
                                /** @description Also the X-Service-Delivery and webhook-id headers of every attempt */
                                id: string;
                                lastAttemptAt: string | null;
                                nextAttemptAt: string | null;
                                responseStatus: number | null;
                                status: "pending" | "succeeded" | "failed";
                                webhookId: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the secret; every later attempt is signed with the new one */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test delivery */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                attempts: number;
                                /** Format: date-time */
                                createdAt: string;
                                event: string;
                                eventId: string;
                                /** @description Also the X-Service-Delivery and webhook-id headers of every attempt */
                                id: string;
                                lastAttemptAt: string | null;
                                nextAttemptAt: string | null;
                                responseStatus: number | null;
                                status: "pending" | "succeeded" | "failed";
                                webhookId: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: string;
                                details?: {
                                    message: string;
                                    path: string;
                                }[];
                                message: string;
                            };
                            retryAfter?: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
