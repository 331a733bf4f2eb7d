import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook secrets and the two signature schemes every delivery carries.
 *
 * A secret is `whsec_<base64 of 24 random bytes>` (the Standard Webhooks / Svix format). The two
 * schemes key their HMAC-SHA256 with different bytes of it:
 * - `X-Service-Signature: sha256=<hex>` (API.md §4, GitHub style): HMAC of the raw body keyed with
 *   the UTF-8 bytes of the **whole secret string**, `whsec_` prefix included — what
 *   `@octokit/webhooks-methods` `verify(secret, body, signature)` does with the string.
 * - `webhook-signature: v1,<base64>` (Standard Webhooks): HMAC of `<webhook-id>.<webhook-timestamp>.<body>`
 *   keyed with the **base64-decoded bytes after `whsec_`** — what `new Webhook(secret).verify()`
 *   of the `standardwebhooks` and `svix` libraries does.
 */
export const SECRET_PREFIX = 'whsec_';

/** A new secret. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The headers that sign one attempt of a delivery. `timestampSeconds` is the attempt's time. */
export function signatureHeaders(secret: string, deliveryId: string, body: string, timestampSeconds: number): Record<string, string> {
  const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const v1 = createHmac('sha256', key).update(`${deliveryId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return {
    'x-service-signature': `sha256=${hex}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${v1}`,
  };
}
