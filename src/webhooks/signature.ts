// Webhook signatures. Standard Webhooks (standardwebhooks.com, with its library): `webhook-id` (the
// event's, the same on every redelivery), `webhook-timestamp` and `webhook-signature` (`v1,<base64>`:
// HMAC-SHA256 over `<id>.<timestamp>.<body>` under the secret's bytes), so that any receiver's library
// verifies and deduplicates them. Beside it, for receivers written before, the earlier
// `X-Milepost-Signature: t=<timestamp>,v1=<hex>` (HMAC-SHA256 over `<timestamp>.<body>` under the secret
// as text), kept while they move over.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * The secret as Standard Webhooks libraries take it: `whsec_` and standard base64. Secrets are made so
 * (deliveries.ts); one made before in the URL-safe alphabet is the same bytes once `-`/`_` read `+`/`/`.
 */
export function standardSecret(secret: string): string {
  return `whsec_${secret
    .replace(/^whsec_/, '')
    .replaceAll('-', '+')
    .replaceAll('_', '/')}`;
}

/** The Standard Webhooks headers of a delivery of `body`, the event `eventId`, sent at `timestamp` (seconds). */
export function standardHeaders(secret: string, eventId: string, timestamp: number, body: string): Record<string, string> {
  const signature = new Webhook(standardSecret(secret)).sign(eventId, new Date(timestamp * 1000), body);
  return { 'webhook-id': eventId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

export function signPayload(secret: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

/** What a receiver does: recompute and compare in constant time, and refuse stale timestamps. */
export function verifySignature(secret: string, header: string, body: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1 || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, timestamp, body).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
