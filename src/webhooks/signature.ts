// Webhook signatures: HMAC-SHA256 over `<timestamp>.<body>` under the app's signing secret, sent as
// `X-Milepost-Signature: t=<timestamp>,v1=<hex>`. The timestamp inside the signed text lets a receiver
// refuse replays of old deliveries.
import { createHmac, timingSafeEqual } from 'node:crypto';

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
