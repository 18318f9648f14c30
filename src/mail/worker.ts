// The mail worker: in each process, it queues the daily digests that are due, claims the mails due now,
// composes each from the database as it is then and hands it to the SMTP server (SMTP_URL), with a
// one-click unsubscribe link (RFC 8058) in every notification and digest. Nothing here runs inside the
// request that caused a mail.
import nodemailer from 'nodemailer';
import type { Prisma } from '../db/database.ts';
import { startPoller } from '../db/leased-rows.ts';
import type { Logger } from '../log.ts';
import { digestLetter, type Letter, messageIdOf, notificationLetter, verificationLetter } from './compose.ts';
import { claimDueMails, type Draft, draftOf, failMail, forgetOldMails, markMail, queueDigests, releaseMails } from './outbox.ts';
import { type MailTokens, VERIFICATION_DAYS } from './tokens.ts';

export interface MailWorker {
  /** Queues due digests and sends the mails due now; the timer calls it, and tests may too. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export interface MailWorkerOptions {
  smtpUrl: string;
  from: string;
  pollMs: number;
  /** The service's public origin, for the mails' links. */
  origin: string;
  tokens: MailTokens;
  /** How often digests are looked for (default a minute). */
  digestEveryMs?: number;
  logger?: Pick<Logger, 'error' | 'warn'>;
}

const SEND_TIMEOUT_MS = 20_000;
/** Digests are looked for at most this often (the query reads the people who chose them). */
const DIGEST_EVERY_MS = 60_000;
/** Digests queued a statement, and statements a round at most. */
const DIGEST_BATCH = 50;
const DIGEST_BATCHES = 40;

/** A mail's headers: its stable Message-ID (a resend after a crash is the same message) and the unsubscribe link. */
function letterOf(draft: Draft, options: MailWorkerOptions): { letter: Letter; headers: Record<string, string> } {
  const host = new URL(options.origin).hostname;
  const headers: Record<string, string> = { 'Auto-Submitted': 'auto-generated' };
  if (draft.kind === 'verify') {
    const link = `${options.origin}/email/verify?token=${options.tokens.verification(draft.personId, draft.to)}`;
    return { letter: verificationLetter(draft.displayName, link, VERIFICATION_DAYS), headers };
  }
  const links = {
    origin: options.origin,
    unsubscribe: `${options.origin}/email/unsubscribe?token=${options.tokens.unsubscribe(draft.personId)}`,
  };
  headers['List-Unsubscribe'] = `<${links.unsubscribe}>`;
  headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  headers['List-Id'] = `Milepost notifications <notifications.${host}>`;
  const letter =
    draft.kind === 'notification'
      ? notificationLetter(draft.displayName, draft.told, links)
      : digestLetter(draft.displayName, draft.listed, draft.total, links);
  return { letter, headers };
}

export function startMailWorker(prisma: Prisma, options: MailWorkerOptions): MailWorker {
  // pooled: a round's mails go over the same connection, not one connection (and greeting) each
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  const host = new URL(options.origin).hostname;
  let digestsLookedAt = 0;
  /** Sends one claimed mail; answers false when the SMTP server could not be reached (the round stops there). */
  const send = async (id: number): Promise<boolean> => {
    const draft = await draftOf(prisma, id, options.origin);
    if ('dropped' in draft) {
      await markMail(prisma, id, draft);
      return true;
    }
    const { letter, headers } = letterOf(draft, options);
    try {
      await transport.sendMail({
        from: options.from,
        to: draft.to,
        subject: letter.subject,
        text: letter.text,
        headers,
        messageId: messageIdOf(id, draft.queuedAt, host),
      });
    } catch (error) {
      const failure = error as Error & { responseCode?: number };
      // a 5xx answer (no such mailbox, refused) will not change by trying again; anything else might
      const permanent = typeof failure.responseCode === 'number' && failure.responseCode >= 500;
      options.logger?.warn({ mail: id, responseCode: failure.responseCode, reason: failure.message }, 'a mail was not sent');
      await failMail(prisma, id, failure.message, permanent);
      // no answer at all: the server is away, and the next mails would wait for it in turn
      return failure.responseCode !== undefined;
    }
    await markMail(prisma, id, { sent: true });
    return true;
  };
  const poller = startPoller(
    async () => {
      if (Date.now() - digestsLookedAt >= (options.digestEveryMs ?? DIGEST_EVERY_MS)) {
        digestsLookedAt = Date.now();
        // 50 people a statement, until the due ones are queued (at most 2,000 a minute: the rest next minute)
        for (let i = 0; i < DIGEST_BATCHES && (await queueDigests(prisma, new Date(), DIGEST_BATCH)) === DIGEST_BATCH; i++);
        await forgetOldMails(prisma);
      }
      const claimed = await claimDueMails(prisma, 20);
      for (const [i, id] of claimed.entries()) {
        if (await send(id)) continue;
        // the SMTP server is away: the rest go back to the queue as they were, for the next round
        await releaseMails(prisma, claimed.slice(i + 1));
        break;
      }
    },
    options.pollMs,
    'mail delivery failed',
    options.logger,
  );
  return {
    tick: poller.tick,
    async stop() {
      await poller.stop();
      transport.close();
    },
  };
}
