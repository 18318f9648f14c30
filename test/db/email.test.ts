// Mailed notifications, against a real SMTP server (smtp-server) on both databases: an address is
// verified by the link mailed to it; a notification is mailed once as it comes (a burst of likes is one
// mail); the kinds and the frequency are chosen; one click unsubscribes; a daily digest gathers a day's;
// and the outbox neither loses nor doubles a mail when a process dies or two send at once.
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailTokens } from '../../src/mail/tokens.ts';
import { type MailWorker, startMailWorker } from '../../src/mail/worker.ts';
import { BASE, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';
import { type MailSink, startMailSink } from '../support/smtp.ts';

const SESSION_SECRET = 'a test secret that is long enough for the mails';
let db: TestDatabase;
let sink: MailSink;
let api: ReturnType<typeof testApp>;
let worker: MailWorker;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions say what they hold
const gql = async (who: string | null, query: string, variables = {}): Promise<any> =>
  (await api.graphql(query, variables, who ? tokens[who] : undefined)).data;
const newWorker = () =>
  startMailWorker(db.prisma, {
    smtpUrl: sink.url,
    from: 'Milepost <no-reply@milepost.test>',
    pollMs: 3_600_000,
    origin: BASE,
    tokens: mailTokens(SESSION_SECRET),
    digestEveryMs: 0,
  });
const setEmail = (who: string, address: string | null) =>
  gql(
    who,
    'mutation($a: String) { setEmail(input: { address: $a }) { emailSettings { address verified } error { __typename ... on ValidationError { issues { path message } } } } }',
    { a: address },
  );
const post = async (who: string, message: string): Promise<number> =>
  (await gql(who, `mutation { createEntry(input: { message: "${message}", visibility: EVERYONE }) { entry { databaseId } } }`)).createEntry
    .entry.databaseId;
const comment = (who: string, entryId: number, body: string) =>
  gql(who, `mutation { createComment(input: { entryId: ${entryId}, body: "${body}" }) { error { __typename } } }`);
/** The mails that arrive on one more tick of the worker. */
async function tick(w: MailWorker = worker): Promise<ParsedMail[]> {
  const before = sink.received.length;
  await w.tick();
  return sink.received.slice(before);
}
/** A header's value as the mail carried it. */
const header = (mail: ParsedMail, name: string) => mail.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, '');
const linkIn = (mail: ParsedMail, path: string) => new URL(mail.text!.match(new RegExp(`${BASE}${path}\\S+`))![0]);

/** Gives `who` a verified address, by the link mailed to it. */
async function verified(who: string): Promise<void> {
  await setEmail(who, `${who}@example.com`);
  const [mail] = await tick();
  const page = await api.fetch(`${linkIn(mail!, '/email/verify').pathname}${linkIn(mail!, '/email/verify').search}`, {
    headers: { accept: 'text/html' },
  });
  expect(page.status).toBe(200);
}

beforeAll(async () => {
  db = await createTestDatabase('email');
  sink = await startMailSink();
  api = testApp(db, { RESPONSE_CACHE_MB: '0', SMTP_URL: sink.url, SESSION_SECRET });
  worker = newWorker();
  for (const name of ['ann', 'ben', 'cat', 'dov']) {
    ids[name] = (await createPerson(db.prisma, { username: name, displayName: name.toUpperCase() })).id;
    tokens[name] = await createToken(db.prisma, ids[name]!);
  }
});
afterAll(async () => {
  await worker.stop();
  await sink.close();
  await db.destroy();
});
beforeEach(() => sink.refuse(null));

describe('an address', () => {
  it('is refused, naming the field, when malformed or where the instance sends no mail', async () => {
    const answer = await setEmail('dov', 'not an address');
    expect(answer.setEmail.error.issues).toEqual([{ path: 'address', message: 'must be an email address, such as jo@example.com' }]);
    const silent = testApp(db, { RESPONSE_CACHE_MB: '0', SESSION_SECRET });
    const refused = await silent.graphql(
      'mutation { setEmail(input: { address: "dov@example.com" }) { error { ... on ValidationError { issues { path message } } } } }',
      {},
      tokens.dov,
    );
    expect(refused.data).toMatchObject({
      setEmail: { error: { issues: [{ path: 'address', message: expect.stringContaining('sends no mail') }] } },
    });
  });

  it('is mailed a link that verifies it; nothing else is mailed to it before', async () => {
    const answer = await setEmail('ann', 'Ann@Example.COM');
    expect(answer.setEmail.emailSettings).toEqual({ address: 'Ann@example.com', verified: false });
    const entry = await post('ann', 'Before verifying');
    await comment('ben', entry, 'Hello');
    const mails = await tick();
    expect(mails.map((m) => [m.to && 'text' in m.to ? m.to.text : '', m.subject])).toEqual([
      ['Ann@example.com', 'Confirm your address for Milepost'],
    ]);
    const link = linkIn(mails[0]!, '/email/verify');
    // a forged or altered token verifies nothing
    const forged = await api.fetch(`/email/verify?token=${link.searchParams.get('token')!.slice(0, -2)}xx`, {
      headers: { accept: 'text/html' },
    });
    expect(forged.status).toBe(400);
    const page = await api.fetch(link.pathname + link.search, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Your address is verified');
    expect((await gql('ann', '{ emailSettings { address verified frequency available } }')).emailSettings).toEqual({
      address: 'Ann@example.com',
      verified: true,
      frequency: 'IMMEDIATE',
      available: true,
    });
    // the link names the address: once it changes, the old link verifies nothing
    await setEmail('ann', 'ann2@example.com');
    const old = await gql(null, 'mutation($t: String!) { verifyEmail(input: { token: $t }) { error { __typename } } }', {
      t: link.searchParams.get('token'),
    });
    expect(old.verifyEmail.error).toEqual({ __typename: 'ValidationError' });
    const [second] = await tick();
    await api.fetch(`${linkIn(second!, '/email/verify').pathname}${linkIn(second!, '/email/verify').search}`);
    expect((await gql('ann', '{ emailSettings { address verified } }')).emailSettings).toEqual({
      address: 'ann2@example.com',
      verified: true,
    });
  });

  it('is mailed a verification link at most five times a day', async () => {
    for (let i = 0; i < 5; i++) expect((await setEmail('cat', `cat${i}@example.com`)).setEmail.error).toBeNull();
    expect((await setEmail('cat', 'cat5@example.com')).setEmail.error.issues[0].message).toContain('at most 5 verification mails a day');
    // only the latest address's link is mailed: the others' rows are dropped, unsent
    expect(await tick()).toHaveLength(1);
  });
});

describe('a notification', () => {
  it('is mailed once as it comes, with its text, a link, and a one-click unsubscribe', async () => {
    await verified('ben');
    const entry = await post('ben', 'Tempo run');
    await comment('cat', entry, 'Fast!');
    const [mail, ...more] = await tick();
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('CAT commented on your entry');
    expect(mail!.text).toContain(`${BASE}/entries/${entry}`);
    expect(mail!.messageId).toMatch(/^<mail-\d+\.[0-9a-z]+@milepost\.test>$/);
    expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = header(mail!, 'list-unsubscribe')!.replace(/^<|>$/g, '');
    expect(unsubscribe).toBe(linkIn(mail!, '/email/unsubscribe').href);
    // a link scanner's GET shows a button and changes nothing
    const shown = await api.fetch(unsubscribe.slice(BASE.length), { headers: { accept: 'text/html' } });
    expect(shown.status).toBe(200);
    expect((await gql('ben', '{ emailSettings { frequency } }')).emailSettings.frequency).toBe('IMMEDIATE');
    // the mail program's one-click POST (RFC 8058): no session, no cookie
    const clicked = await api.fetch(unsubscribe.slice(BASE.length), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.status).toBe(200);
    expect((await gql('ben', '{ emailSettings { frequency } }')).emailSettings.frequency).toBe('OFF');
    await comment('dov', entry, 'Again');
    expect(await tick()).toEqual([]);
    await gql('ben', 'mutation { setEmailFrequency(input: { frequency: IMMEDIATE }) { error { __typename } } }');
  });

  it('of a burst of 500 likes is one notification and one mail', async () => {
    const entry = await post('ben', 'Race day');
    const likers = await Promise.all(Array.from({ length: 500 }, async () => createToken(db.prisma, (await createPerson(db.prisma)).id)));
    // 500 likes, 20 at a time, while the worker sends: one notification, one mail
    for (let i = 0; i < likers.length; i += 20) {
      const batch = likers.slice(i, i + 20);
      await Promise.all([
        ...batch.map((token) => api.graphql(`mutation { likeEntry(input: { entryId: ${entry} }) { error { __typename } } }`, {}, token)),
        i % 100 === 0 ? worker.tick() : null,
      ]);
    }
    await worker.tick();
    const mails = sink.received.filter((m) => m.subject?.endsWith('liked your entry'));
    expect(mails).toHaveLength(1);
    expect(await db.prisma.notification.findMany({ where: { entryId: entry }, select: { actorCount: true } })).toEqual([
      { actorCount: 500 },
    ]);
  });

  it('is not mailed when its kind is unticked for mail, or it was read before the mail went', async () => {
    await gql('ben', 'mutation { setNotificationPreference(input: { kind: LIKE, email: false }) { inApp email } }');
    const entry = await post('ben', 'Easy jog');
    await gql('cat', `mutation { likeEntry(input: { entryId: ${entry} }) { error { __typename } } }`);
    expect((await gql('ben', '{ unreadNotificationCount }')).unreadNotificationCount).toBeGreaterThan(0);
    await comment('cat', entry, 'Nice and easy');
    await gql('ben', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    expect(await tick()).toEqual([]);
    expect(await db.prisma.mail.findFirst({ where: { personId: ids.ben }, orderBy: { id: 'desc' }, select: { status: true } })).toEqual({
      status: 'dropped',
    });
    await gql('ben', 'mutation { setNotificationPreference(input: { kind: LIKE, email: true }) { inApp email } }');
  });
});

describe('the daily digest', () => {
  it('gathers a day of unread notifications into one mail, a day after the last', async () => {
    await verified('dov');
    await gql('dov', 'mutation { setEmailFrequency(input: { frequency: DAILY }) { emailSettings { frequency } } }');
    const [first, second] = [await post('dov', 'Hill repeats'), await post('dov', 'Long ride')];
    await comment('ann', first, 'Ouch');
    await comment('cat', second, 'Far!');
    await gql('ben', `mutation { likeEntry(input: { entryId: ${second} }) { error { __typename } } }`);
    // not a day yet since DAILY was chosen
    expect(await tick()).toEqual([]);
    await db.prisma.person.update({ where: { id: ids.dov }, data: { digestQueuedAt: new Date(Date.now() - 25 * 3600_000) } });
    const [digest, ...more] = await tick();
    expect(more).toEqual([]);
    expect(digest!.subject).toBe('Milepost: 3 things happened since yesterday');
    expect(digest!.text).toContain('BEN liked your entry');
    expect(digest!.text).toContain('ANN commented on your entry');
    expect(header(digest!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // the next digest waits a day
    await comment('ann', second, 'And again');
    expect(await tick()).toEqual([]);
  });
});

describe('the daily digests', () => {
  it('are all queued in one round when more are due than one statement takes', async () => {
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    const people = await Promise.all(
      Array.from({ length: 60 }, async (_, i) =>
        db.prisma.person.create({
          data: {
            username: `digest${i}`,
            usernameKey: `digest${i}`,
            displayName: `Digest ${i}`,
            email: `digest${i}@example.com`,
            emailVerifiedAt: dayAgo,
            emailFrequency: 'daily',
            digestQueuedAt: dayAgo,
          },
          select: { id: true },
        }),
      ),
    );
    await db.prisma.notification.createMany({
      data: people.map((person) => ({
        personId: person.id,
        kind: 'friend_request',
        actorId: ids.ann!,
        groupKey: `friend_request:person:${ids.ann}`,
      })),
    });
    // one round queues the 60 digests (two statements of 50); rounds send 20 mails each
    const queued = await db.prisma.mail.count({ where: { kind: 'digest', status: 'pending' } });
    const mails = await tick();
    expect((await db.prisma.mail.count({ where: { kind: 'digest' } })) - queued).toBeGreaterThanOrEqual(60);
    for (let round = 0; round < 5; round++) mails.push(...(await tick()));
    expect(mails.filter((mail) => String(mail.to && 'text' in mail.to ? mail.to.text : '').startsWith('digest'))).toHaveLength(60);
  });
});

describe('the outbox', () => {
  it('sends a committed mail once after the process that wrote it died, and a mail cut off mid-send once again, as the same message', async () => {
    const entry = await post('ben', 'Track session');
    // the act committed and its process died before any worker ran: a new process's worker sends it
    await comment('ann', entry, 'Committed');
    const fresh = newWorker();
    const [mail] = await tick(fresh);
    expect(mail!.subject).toBe('ANN commented on your entry');
    expect(await tick(fresh)).toEqual([]);
    // a process claimed a mail and died before marking it: once its claim lapses it is sent, with the same Message-ID
    await gql('ben', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    await comment('ann', entry, 'Cut off');
    const row = await db.prisma.mail.findFirstOrThrow({
      where: { personId: ids.ben, status: 'pending' },
      select: { id: true, createdAt: true },
    });
    await db.prisma.mail.update({ where: { id: row.id }, data: { status: 'sending', lockedUntil: new Date(Date.now() + 60_000) } });
    expect(await tick(fresh)).toEqual([]);
    await db.prisma.mail.update({ where: { id: row.id }, data: { lockedUntil: new Date(Date.now() - 1) } });
    const [again] = await tick(fresh);
    expect(again!.messageId).toBe(`<mail-${row.id}.${row.createdAt.getTime().toString(36)}@milepost.test>`);
    await fresh.stop();
  });

  it('sends each mail once when two processes send at once', async () => {
    const entry = await post('ann', 'Shared workers');
    await gql('ann', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    await gql('ben', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    await comment('ben', entry, 'One');
    await comment('ann', (await post('ben', 'Another')) as number, 'Two');
    const other = newWorker();
    const before = sink.received.length;
    await Promise.all([worker.tick(), other.tick()]);
    expect(
      sink.received
        .slice(before)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['ANN commented on your entry', 'BEN commented on your entry']);
    await other.stop();
  });

  it('keeps the mails while the SMTP server is away, trying one a round, and sends them all once it answers', async () => {
    await gql('ann', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    for (const message of ['Away one', 'Away two', 'Away three']) await comment('dov', await post('ann', message), 'Seen');
    const gone = await startMailSink();
    await gone.close();
    const away = startMailWorker(db.prisma, {
      smtpUrl: gone.url,
      from: 'Milepost <no-reply@milepost.test>',
      pollMs: 3_600_000,
      origin: BASE,
      tokens: mailTokens(SESSION_SECRET),
    });
    await away.tick();
    await away.stop();
    const rows = await db.prisma.mail.findMany({ where: { personId: ids.ann, status: { not: 'sent' } }, orderBy: { id: 'asc' } });
    // the first was tried and waits to be tried again; the others were given back untried
    expect(rows.map((row) => [row.status, row.attempts, row.lockedUntil])).toEqual([
      ['pending', 1, null],
      ['pending', 0, null],
      ['pending', 0, null],
    ]);
    expect((await tick()).map((m) => m.subject)).toEqual(['DOV commented on your entry', 'DOV commented on your entry']);
    await db.prisma.mail.updateMany({ where: { id: rows[0]!.id }, data: { nextAttemptAt: new Date() } });
    expect((await tick()).map((m) => m.subject)).toEqual(['DOV commented on your entry']);
  });

  it('tries a mail again after a temporary refusal, and gives it up after a permanent one', async () => {
    const entry = await post('ann', 'Refused');
    await gql('ann', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    await comment('cat', entry, 'Try later');
    sink.refuse(451);
    expect(await tick()).toEqual([]);
    const row = await db.prisma.mail.findFirstOrThrow({ where: { personId: ids.ann }, orderBy: { id: 'desc' } });
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    sink.refuse(null);
    await db.prisma.mail.update({ where: { id: row.id }, data: { nextAttemptAt: new Date() } });
    expect((await tick()).map((m) => m.subject)).toEqual(['CAT commented on your entry']);
    await gql('ann', 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');
    await comment('dov', entry, 'No such mailbox');
    sink.refuse(550);
    expect(await tick()).toEqual([]);
    expect(await db.prisma.mail.findFirstOrThrow({ where: { personId: ids.ann }, orderBy: { id: 'desc' } })).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
  });
});
