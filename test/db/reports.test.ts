// Reports and moderation: anyone reports what they can see; moderators (promoted by the operator) read
// the queue and hide the content (an entry becomes its author's alone, for good; a comment goes),
// suspend its author (tokens and sessions stop at once; no log-in), or dismiss; nobody else may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens: Record<string, string> = {};
const PASSWORD = 'a long enough password';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions say what they hold
const gql = async (who: string | null, query: string): Promise<any> => api.graphql(query, {}, who ? tokens[who] : undefined);
const errorOf = async (who: string, mutation: string) =>
  (Object.values((await gql(who, `mutation { ${mutation} { error { __typename } } }`)).data)[0] as { error: { __typename: string } | null })
    .error?.__typename ?? null;
const post = async (who: string, message: string) =>
  (await gql(who, `mutation { createEntry(input: { message: "${message}", visibility: EVERYONE }) { entry { databaseId } } }`)).data
    .createEntry.entry.databaseId as number;
const queue = async (who: string) =>
  await gql(
    who,
    '{ reports { totalCount edges { node { databaseId kind excerpt reason filedBy { username } author { username } entryId } } } }',
  );

beforeAll(async () => {
  db = await createTestDatabase('reports');
  api = testApp(db, { RESPONSE_CACHE_MB: '0' });
  for (const name of ['mod', 'ray', 'sid'])
    tokens[name] = await createToken(db.prisma, (await createPerson(db.prisma, { username: name })).id);
  const troll = await createAccount(db.prisma, { username: 'troll', password: PASSWORD, displayName: 'Troll' });
  tokens.troll = await createToken(db.prisma, troll.id);
});
afterAll(() => db.destroy());

describe('reports', () => {
  it('are taken from anyone who can see the content, once each, with a bounded reason', async () => {
    const entry = await post('troll', 'Something nasty');
    expect(await errorOf('ray', `reportContent(input: { entryId: ${entry}, reason: "Abusive" })`)).toBeNull();
    expect(await errorOf('ray', `reportContent(input: { entryId: ${entry}, reason: "Again" })`)).toBeNull();
    expect(await errorOf('sid', `reportContent(input: { entryId: ${entry}, reason: "Spam" })`)).toBeNull();
    expect(await db.prisma.report.count()).toBe(2);
    expect(await errorOf('ray', `reportContent(input: { entryId: ${entry}, reason: "" })`)).toBe('ValidationError');
    expect(await errorOf('ray', `reportContent(input: { entryId: ${entry}, reason: "${'x'.repeat(501)}" })`)).toBe('ValidationError');
    expect(await errorOf('troll', `reportContent(input: { entryId: ${entry}, reason: "Mine" })`)).toBe('ValidationError');
    expect(await errorOf('ray', 'reportContent(input: { entryId: 999999, reason: "Ghost" })')).toBe('NotFoundError');
    expect(await errorOf('ray', 'reportContent(input: { reason: "Nothing" })')).toBe('ValidationError');
  });

  it('are read and acted on by moderators only, promoted by the operator', async () => {
    expect((await queue('ray')).errors[0].extensions.type).toBe('NotAuthorizedError');
    const promoted = await runCli(['users', 'promote', '--username', 'mod'], { DATABASE_URL: db.config.url });
    expect(promoted.code).toBe(0);
    const open = (await queue('mod')).data.reports;
    expect(open.totalCount).toBe(2);
    expect(open.edges[0].node).toMatchObject({
      kind: 'entry',
      excerpt: 'Something nasty',
      reason: 'Abusive',
      filedBy: { username: 'ray' },
      author: { username: 'troll' },
    });
    const reportId = open.edges[0].node.databaseId;
    expect(await errorOf('ray', `moderate(input: { reportId: ${reportId}, action: HIDE })`)).toBe('NotAuthorizedError');
    // hidden: the entry is its author's alone, for good, and both reports of it are closed
    expect(await errorOf('mod', `moderate(input: { reportId: ${reportId}, action: HIDE })`)).toBeNull();
    // the entry by its global id, as every id the API answers
    const entryId = open.edges[0].node.entryId;
    expect(Buffer.from(entryId, 'base64').toString()).toMatch(/^Entry:\d+$/);
    expect((await api.fetch(`/entries/${Buffer.from(entryId, 'base64').toString().split(':')[1]}.json`)).status).toBe(404);
    expect((await gql('troll', `{ entry(id: "${entryId}") { visibility } }`)).data.entry).toEqual({ visibility: 'ONLY_ME' });
    expect(await errorOf('troll', `updateEntry(input: { id: "${entryId}", visibility: EVERYONE })`)).toBe('ValidationError');
    expect((await queue('mod')).data.reports.totalCount).toBe(0);
  });

  it('remove a reported comment when hidden', async () => {
    const entry = await post('sid', 'Fine entry');
    const comment = (
      await gql('troll', `mutation { createComment(input: { entryId: ${entry}, body: "Rude words" }) { comment { databaseId } } }`)
    ).data.createComment.comment.databaseId;
    expect(await errorOf('sid', `reportContent(input: { commentId: ${comment}, reason: "Rude" })`)).toBeNull();
    const [report] = (await queue('mod')).data.reports.edges;
    expect(report.node).toMatchObject({
      kind: 'comment',
      excerpt: 'Rude words',
      entryId: Buffer.from(`Entry:${entry}`).toString('base64'),
    });
    expect(await errorOf('mod', `moderate(input: { reportId: ${report.node.databaseId}, action: HIDE })`)).toBeNull();
    expect(await db.prisma.comment.count({ where: { id: comment } })).toBe(0);
  });

  it('suspend an author: their tokens, sessions and live subscriptions stop at once, and they cannot log in until unsuspended', async () => {
    const browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('troll', PASSWORD)).status).toBe(302);
    expect((await browser.get('/account')).status).toBe(200);
    const entry = await post('troll', 'More of the same');
    await errorOf('ray', `reportContent(input: { entryId: ${entry}, reason: "Still at it" })`);
    // the troll listens to new public entries over server-sent events
    const response = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${tokens.troll}` },
      body: JSON.stringify({ query: 'subscription { publicEntries { message } }' }),
    });
    const stream = (async () => {
      const reader = response.body!.getReader();
      let all = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return { all, ended: true };
        all += new TextDecoder().decode(value);
        if (all.includes('event: complete')) return { all, ended: true };
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post('sid', 'Heard before');
    const [report] = (await queue('mod')).data.reports.edges;
    expect(await errorOf('mod', `moderate(input: { reportId: ${report.node.databaseId}, action: SUSPEND })`)).toBeNull();
    await post('sid', 'Not heard after');
    // a stream that goes on is an open subscription: waited for a while, then failed on
    const heard = await Promise.race([
      stream,
      new Promise<{ all: string; ended: boolean }>((resolve) => setTimeout(() => resolve({ all: '', ended: false }), 5_000)),
    ]);
    expect(heard.ended).toBe(true);
    expect(heard.all).toContain('Heard before');
    expect(heard.all).not.toContain('Not heard after');
    expect((await api.fetch('/people/me.json', { headers: { authorization: `Bearer ${tokens.troll}` } })).status).toBe(401);
    expect((await browser.get('/account')).status).toBe(302);
    expect((await new TestBrowser(api.fetch).logIn('troll', PASSWORD)).status).not.toBe(302);
    expect((await runCli(['users', 'unsuspend', '--username', 'troll'], { DATABASE_URL: db.config.url })).code).toBe(0);
    expect((await api.fetch('/people/me.json', { headers: { authorization: `Bearer ${tokens.troll}` } })).status).toBe(200);
  });

  it('can be dismissed, the report named by the global id the queue gives', async () => {
    const entry = await post('sid', 'Harmless');
    await errorOf('ray', `reportContent(input: { entryId: ${entry}, reason: "Hmm" })`);
    const [report] = (await gql('mod', '{ reports { edges { node { id } } } }')).data.reports.edges;
    expect(await errorOf('mod', `moderate(input: { reportId: "${report.node.id}", action: DISMISS })`)).toBeNull();
    expect((await api.fetch(`/entries/${entry}.json`)).status).toBe(200);
    const closed = await gql('mod', '{ reports(open: false) { edges { node { resolution } } } }');
    expect(closed.data.reports.edges.map((e: { node: { resolution: string } }) => e.node.resolution)).toContain('dismissed');
  });
});
