// An app's webhook, as its owner sets it on the developer page: the URL (checked against SSRF and by a
// challenge it must answer), the signing secret, and the log of deliveries.

import type { Prisma } from '../db/database.ts';
import { APP, type RegisteredApp, toApp } from '../db/oauth-clients.ts';
import { httpUrlProblem } from '../domain/entry-input.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { webhookTargetProblem } from './address-guard.ts';
import { newWebhookSecret, webhookChallengeProblem } from './deliveries.ts';

/**
 * Sets (or with null clears) an app's webhook URL; answers the signing secret when one was created. The URL
 * must reach the public internet (loopback, private networks and metadata addresses are refused, against
 * SSRF, unless `allowPrivate`), and must answer the challenge that proves its owner controls it.
 */
export async function setWebhook(
  prisma: Prisma,
  ownerId: number | null,
  clientId: string,
  url: string | null,
  options: { allowPrivate?: boolean } = {},
): Promise<{ secret: string | null }> {
  const app = await prisma.oAuthClient.findFirst({
    where: { clientId, ...(ownerId === null ? {} : { ownerId }) },
    select: { id: true, webhookSecret: true },
  });
  if (!app) throw new NotFoundError('app', clientId);
  const target = url?.trim() || null;
  if (target) {
    const problem =
      httpUrlProblem(target) ??
      (options.allowPrivate ? null : await webhookTargetProblem(target)) ??
      (await webhookChallengeProblem(target, { allowPrivate: options.allowPrivate ?? false }));
    if (problem) throw ValidationError.field('webhook_url', problem);
  }
  const secret = target && !app.webhookSecret ? newWebhookSecret() : null;
  await prisma.oAuthClient.update({ where: { id: app.id }, data: { webhookUrl: target, ...(secret ? { webhookSecret: secret } : {}) } });
  return { secret };
}

export interface DeliveryRow {
  id: number;
  event: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
}

/** The delivery log of an owned app, newest first. */
export async function deliveriesOf(
  prisma: Prisma,
  ownerId: number,
  clientId: string,
  take = 50,
): Promise<{ app: RegisteredApp & { webhookUrl: string | null }; deliveries: DeliveryRow[] }> {
  const app = await prisma.oAuthClient.findFirst({ where: { clientId, ownerId }, select: { ...APP, webhookUrl: true } });
  if (!app) throw new NotFoundError('app', clientId);
  const deliveries = await prisma.webhookDelivery.findMany({
    where: { clientId: app.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
    select: {
      id: true,
      event: true,
      status: true,
      attempts: true,
      lastStatusCode: true,
      lastError: true,
      createdAt: true,
      deliveredAt: true,
      nextAttemptAt: true,
    },
  });
  return { app: { ...toApp(app), webhookUrl: app.webhookUrl }, deliveries };
}
