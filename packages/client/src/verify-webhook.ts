const encoder = new TextEncoder();

function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Compares in time that depends only on the length (which is public: always 32 bytes here). */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Checks a delivery's `X-Service-Signature: sha256=<hex>` header: the HMAC-SHA256 of the raw body
 * keyed with the secret's UTF-8 bytes, compared in constant time. Uses Web Crypto, so it runs in
 * browsers, Node ≥ 20, Deno, Bun and edge runtimes.
 *
 * Pass the body exactly as received (a re-serialised JSON object will not match).
 *
 * @example
 * // express: app.post('/hook', express.raw({ type: 'application/json' }), async (req, res) => {
 * if (!(await verifyWebhook(secret, req.body, req.headers['x-service-signature']))) return res.sendStatus(401);
 */
export async function verifyWebhook(
  secret: string,
  rawBody: string | Uint8Array | ArrayBuffer,
  signatureHeader: string | readonly string[] | null | undefined,
): Promise<boolean> {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const given = hexToBytes(header.slice('sha256='.length).trim());
  if (!given) return false;
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // A copy makes any view (a Node Buffer included) a plain Uint8Array over an ArrayBuffer.
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody instanceof ArrayBuffer ? rawBody : new Uint8Array(rawBody);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, body));
  return timingSafeEqual(expected, given);
}
