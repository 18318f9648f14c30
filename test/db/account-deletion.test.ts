// Deleting an account, from the account page with the password, or `milepost users
// delete`: the person and everything they own go at once, on both databases. Every table of the model
// is counted before the person's data was made and after it was deleted, so a table added later is
// checked too; their photos go from disk unless another entry shows the same one.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../src/auth/tokens.ts';
import { createAccount } from '../../src/db/account-sessions.ts';
import { registerApp } from '../../src/db/oauth-clients.ts';
import { Prisma as Models } from '../../src/generated/prisma-sqlite/client.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

const PASSWORD = 'a long enough password';
const GPX = `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${Array.from(
  { length: 50 },
  (_, i) => `<trkpt lat="${40 + i * 0.0001}" lon="-74"><time>${new Date(Date.UTC(2026, 0, 1, 7, 0, i * 5)).toISOString()}</time></trkpt>`,
).join('')}</trkseg></trk></gpx>`;

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let mediaDir: string;

/**
 * Rows of every model of the schema, by model; but the outbox, the webhook worker's queue (not running
 * here), whose events for a person who is gone turn into no delivery (they reach only that person's apps).
 */
async function countAll(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const model of Object.values(Models.ModelName).filter((name) => name !== 'OutboxEvent')) {
    const delegate = (db.prisma as unknown as Record<string, { count(): Promise<number> }>)[
      model.charAt(0).toLowerCase() + model.slice(1)
    ]!;
    counts[model] = await delegate.count();
  }
  return counts;
}

async function photo(token: string, color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 60, height: 40, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.set('message', `photo ${color}`);
  form.set('media[type]', 'image');
  form.set('media[data]', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await api.fetch('/entries.json', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { media: Array<{ content: { url: string } }> };
  return path.basename(body.media[0]!.content.url);
}

async function graphql<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await api.graphql<T>(query, variables, token);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

/**
 * Everything a person can own or leave behind, around a bystander who stays: entries with a workout,
 * a track and photos, comments and likes both ways, a friend and a pending request, a route another
 * person's workout used, a privacy zone, an app with a webhook and a token someone else granted it.
 */
async function makeAthlete(username: string, bystander: { id: number; token: string }) {
  const account = await createAccount(db.prisma, { username, password: PASSWORD, displayName: username });
  const token = await createToken(db.prisma, account.id);
  await makeFriends(db.prisma, account.id, bystander.id);
  const entry = await graphql<{ createEntry: { entry: { id: number } } }>(
    token,
    'mutation { createEntry(input: { message: "a run", workout: { activityType: RUNNING, distance: { value: 5, units: KILOMETERS } } }) { entry { id: databaseId } } }',
  );
  const entryId = entry.createEntry.entry.id;
  await graphql(
    token,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: entryId,
      gpx: GPX,
    },
  );
  await graphql(
    bystander.token,
    `mutation { createComment(input: { entryId: ${entryId}, body: "nice" }) { error { __typename } } likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`,
  );
  const theirs = await graphql<{ createEntry: { entry: { id: number } } }>(
    bystander.token,
    'mutation { createEntry(input: { message: "mine" }) { entry { id: databaseId } } }',
  );
  await graphql(
    token,
    `mutation { createComment(input: { entryId: ${theirs.createEntry.entry.id}, body: "great" }) { error { __typename } } likeEntry(input: { entryId: ${theirs.createEntry.entry.id} }) { error { __typename } } }`,
  );
  const route = await graphql<{ createRoute: { route: { id: number } } }>(
    token,
    'mutation { createRoute(input: { name: "loop" }) { route { id: databaseId } } }',
  );
  await graphql(
    token,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setRouteTrack(input: { routeId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: route.createRoute.route.id,
      gpx: GPX,
    },
  );
  await graphql(token, 'mutation { addPrivacyZone(input: { lat: 40, lon: -74, radiusMeters: 100 }) { error { __typename } } }');
  const stranger = await createPerson(db.prisma);
  await db.prisma.friendRequest.create({ data: { fromId: account.id, toId: stranger.id } });
  const app = await registerApp(db.prisma, account.id, {
    name: `${username}'s app`,
    redirectUris: ['https://app.example/cb'],
    confidential: true,
  });
  const appRow = await db.prisma.oAuthClient.findUniqueOrThrow({ where: { clientId: app.clientId }, select: { id: true } });
  await db.prisma.oAuthClient.update({ where: { id: appRow.id }, data: { webhookUrl: 'https://app.example/hook', webhookSecret: 's' } });
  await db.prisma.webhookDelivery.create({ data: { clientId: appRow.id, event: 'entry.created', payload: '{}' } });
  const grantedByBystander = generateToken();
  await db.prisma.oAuthAccessToken.create({
    data: { tokenHash: hashToken(grantedByBystander), clientId: appRow.id, personId: bystander.id },
  });
  return { account, token, entryId, routeId: route.createRoute.route.id, strangerId: stranger.id, grantedByBystander };
}

/** The rows makeAthlete leaves that are not the athlete's: the bystander's entry, the stranger, the test's token app. */
const othersSince = (counts: Record<string, number>) => ({
  ...counts,
  Entry: counts.Entry! + 1,
  Person: counts.Person! + 1,
  OAuthClient: counts.OAuthClient! + 1,
});

let bystander: { id: number; token: string };
let before: Record<string, number>;

beforeAll(async () => {
  db = await createTestDatabase('deletion');
  mediaDir = mkdtempSync(path.join(tmpdir(), 'milepost-media-'));
  api = testApp(db, { MEDIA_DIR: mediaDir });
  const person = await createPerson(db.prisma, { username: 'bea' });
  bystander = { id: person.id, token: await createToken(db.prisma, person.id) };
});
afterAll(async () => {
  await db.destroy();
  rmSync(mediaDir, { recursive: true, force: true });
});

describe('deleting an account', () => {
  it('on the account page, asks for the password and then removes everything the person owned', async () => {
    const shared = await photo(bystander.token, '#123456');
    before = await countAll();
    const ada = await makeAthlete('ada', bystander);
    const own = await photo(ada.token, '#abcdef');
    const same = await photo(ada.token, '#123456'); // the bystander's photo again: stored once
    expect(same).toBe(shared);
    // and an avatar of her own, uploaded: one file, the size pages show (no full-size copy nothing shows)
    const uploadAvatar = async (background: string) => {
      const avatarBytes = await sharp({ create: { width: 400, height: 400, channels: 3, background } })
        .png()
        .toBuffer();
      const avatarSet = await api.graphqlUpload<{ updateProfile: { person: { photoUrl: string } } }>(
        'mutation ($file: ImageFile!) { updateProfile(input: { photo: $file }) { person { photoUrl } } }',
        new Blob([new Uint8Array(avatarBytes)], { type: 'image/png' }),
        'me.png',
        ada.token,
      );
      return path.basename(avatarSet.data!.updateProfile.person.photoUrl);
    };
    const filesBefore = readdirSync(mediaDir).length;
    const replaced = await uploadAvatar('#0a0b0c');
    expect(readdirSync(mediaDir)).toHaveLength(filesBefore + 1);
    // changed: the one it replaced goes from disk
    const avatar = await uploadAvatar('#fedcba');
    expect(existsSync(path.join(mediaDir, replaced))).toBe(false);
    expect(existsSync(path.join(mediaDir, avatar))).toBe(true);
    expect(readdirSync(mediaDir)).toHaveLength(filesBefore + 1);
    // the bystander reports her entry: the report (with her words) must not outlive her
    const [adasEntry] = await db.prisma.entry.findMany({ where: { authorId: ada.account.id }, select: { id: true } });
    await graphql(
      bystander.token,
      `mutation { reportContent(input: { entryId: ${adasEntry!.id}, reason: "spam" }) { error { __typename } } }`,
    );
    expect(await db.prisma.report.count({ where: { targetKind: 'entry', targetId: adasEntry!.id } })).toBe(1);

    // anonymous readers see her entries (and the response cache keeps the page)
    const authors = async () =>
      ((await (await api.fetch('/entries.json')).json()) as { entries: Array<{ user: { username: string } }> }).entries.map(
        (entry) => entry.user.username,
      );
    expect(await authors()).toContain('ada');

    const browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('ada', PASSWORD)).status).toBe(302);
    const account = await browser.get('/account');
    expect(await account.text()).toContain('Delete your account');
    // a wrong password deletes nothing
    const wrong = await browser.post('/account/delete', { password: 'not it' });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('password: is not your password');
    expect(await db.prisma.person.count({ where: { id: ada.account.id } })).toBe(1);

    const deleted = await browser.post('/account/delete', { password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toContain('Your account is deleted');
    expect(deleted.headers.get('set-cookie')).toMatch(/Max-Age=0/);

    // every table is back to what it held before Ada, but for what others made since: the bystander's
    // entry (Ada's comment and like on it gone), the person Ada's request was waiting on (the request
    // gone), and the test's app that held Ada's token (not hers: her own app is gone)
    expect(await countAll()).toEqual(othersSince(before));
    // her tokens, and the token the bystander gave her app, answer 401 at once
    expect((await api.fetch('/people/me.json', { headers: { authorization: `Bearer ${ada.token}` } })).status).toBe(401);
    expect((await api.fetch('/people/me.json', { headers: { authorization: `Bearer ${ada.grantedByBystander}` } })).status).toBe(401);
    // the page's session ended with her
    expect((await browser.get('/account')).status).toBe(302);
    // her own photo and its preview are gone from disk; the one the bystander also shows stays
    const files = readdirSync(mediaDir);
    expect(files.some((file) => file.startsWith(own.slice(0, 64)))).toBe(false);
    expect(existsSync(path.join(mediaDir, avatar))).toBe(false);
    expect(existsSync(path.join(mediaDir, shared))).toBe(true);
    expect(await db.prisma.report.count({ where: { targetKind: 'entry', targetId: adasEntry!.id } })).toBe(0);
    expect((await api.fetch(`/media/${shared}`)).status).toBe(200);
    // the public stream no longer shows her (the response cache saw the commit)
    expect(await authors()).not.toContain('ada');
  });

  it('with `milepost users delete --username U --yes`, and not without --yes', async () => {
    const env = { DATABASE_URL: db.config.url, MEDIA_DIR: mediaDir };
    const start = await countAll();
    const cy = await makeAthlete('cy', bystander);
    const refused = await runCli(['users', 'delete', '--username', 'cy'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const result = await runCli(['users', 'delete', '--username', 'CY', '--yes'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ deleted: 'cy', entries: 1, apps: 1 });
    expect(await countAll()).toEqual(othersSince(start));
    expect((await api.fetch('/people/me.json', { headers: { authorization: `Bearer ${cy.token}` } })).status).toBe(401);
    const nobody = await runCli(['users', 'delete', '--username', 'cy', '--yes'], env);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('nobody is called "cy"');
  });
});
