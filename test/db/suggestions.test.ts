// People the viewer may know: friends of friends, commenters, people active nearby, ranked; never a
// friend, a pending request, or anyone on either side of a block; on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token = '';

type Answer = {
  data?: { suggestedPeople: Array<{ person: { username: string }; mutualFriends: number; reasons: string[] }> | null };
  errors?: Array<{ extensions?: { type?: string } }>;
};
const suggested = async (args = '', as = token) =>
  (await api.graphql(`{ suggestedPeople${args} { person { username } mutualFriends reasons } }`, {}, as || undefined)) as Answer;

beforeAll(async () => {
  db = await createTestDatabase('suggestions');
  api = testApp(db);
  const people = Object.fromEntries(
    await Promise.all(
      ['me', 'fran', 'gus', 'amy', 'bo', 'cal', 'dee', 'eli', 'far'].map(async (username) => [
        username,
        await createPerson(db.prisma, { username }),
      ]),
    ),
  );
  const id = (name: string) => people[name]!.id;
  token = await createToken(db.prisma, id('me'));
  // my friends Fran and Gus; Amy is a friend of both, Bo of Fran only, Gus of Fran too
  await makeFriends(db.prisma, id('me'), id('fran'));
  await makeFriends(db.prisma, id('me'), id('gus'));
  await makeFriends(db.prisma, id('fran'), id('gus'));
  await makeFriends(db.prisma, id('fran'), id('amy'));
  await makeFriends(db.prisma, id('gus'), id('amy'));
  await makeFriends(db.prisma, id('fran'), id('bo'));
  // Eli is Fran's friend too, but blocked me; I asked Bo already
  await makeFriends(db.prisma, id('fran'), id('eli'));
  await db.prisma.block.create({ data: { blockerId: id('eli'), blockedId: id('me') } });
  // Cal commented on my entry; Dee posted near where I did; Far posted far away
  const mine = await createEntry(db.prisma, id('me'), { message: 'Lake loop', lat: 37.8, lon: -122.26 });
  await db.prisma.comment.create({ data: { entryId: mine.id, authorId: id('cal'), body: 'Nice' } });
  await createEntry(db.prisma, id('dee'), { message: 'Also by the lake', lat: 37.81, lon: -122.25 });
  await createEntry(db.prisma, id('far'), { message: 'Elsewhere', lat: 48.85, lon: 2.35 });
  // Bo: a request waits
  await db.prisma.friendRequest.create({ data: { fromId: id('me'), toId: id('bo') } });
});
afterAll(() => db.destroy());

describe('suggestedPeople', () => {
  it('ranks friends of friends, then commenters, then people nearby, then people active lately; never friends, requests or blocks', async () => {
    const answer = await suggested();
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.suggestedPeople).toEqual([
      { person: { username: 'amy' }, mutualFriends: 2, reasons: ['FRIEND_OF_FRIEND'] },
      { person: { username: 'cal' }, mutualFriends: 0, reasons: ['COMMENTS_ON_YOURS'] },
      { person: { username: 'dee' }, mutualFriends: 0, reasons: ['ACTIVE_NEARBY', 'ACTIVE_LATELY'] },
      // far away, but posting in public lately: the weakest reason, last
      { person: { username: 'far' }, mutualFriends: 0, reasons: ['ACTIVE_LATELY'] },
    ]);
    expect((await suggested('(first: 1)')).data!.suggestedPeople!.map((s) => s.person.username)).toEqual(['amy']);
  });

  it('never counts a place its author hides: an entry inside their privacy zone tells nobody they are active there', async () => {
    const homebody = await createPerson(db.prisma, { username: 'homebody' });
    // a public entry at home, by the lake, inside the zone around it
    await db.prisma.privacyZone.create({ data: { personId: homebody.id, lat: 37.805, lon: -122.255, radiusMeters: 500 } });
    await createEntry(db.prisma, homebody.id, { message: 'Home again', lat: 37.805, lon: -122.255 });
    // posting in public is seen (ACTIVE_LATELY), but nothing says where
    const reasons = async () =>
      (await suggested('(first: 50)')).data!.suggestedPeople!.find((s) => s.person.username === 'homebody')?.reasons;
    expect(await reasons()).toEqual(['ACTIVE_LATELY']);
    // a place others are shown counts as ever
    await createEntry(db.prisma, homebody.id, { message: 'Out on the trail', lat: 37.83, lon: -122.2 });
    expect(await reasons()).toEqual(['ACTIVE_NEARBY', 'ACTIVE_LATELY']);
  });

  it('gives a new athlete (no friends, no entries, no place) the people posting in public lately, never a suspended one or one posting to friends only', async () => {
    const newcomer = await createPerson(db.prisma, { username: 'newcomer' });
    const quiet = await createPerson(db.prisma, { username: 'quiet' });
    const banned = await createPerson(db.prisma, { username: 'banned' });
    await db.prisma.person.update({ where: { id: banned.id }, data: { suspendedAt: new Date() } });
    for (let i = 0; i < 3; i++) {
      await createEntry(db.prisma, quiet.id, { message: `Only for friends ${i}`, visibility: 'friends' });
      await createEntry(db.prisma, banned.id, { message: `Spam ${i}` });
    }
    const answer = await suggested('(first: 50)', await createToken(db.prisma, newcomer.id));
    const names = answer.data!.suggestedPeople!.map((s) => s.person.username);
    expect(names).toEqual(expect.arrayContaining(['dee', 'far', 'me']));
    expect(names).not.toContain('quiet');
    expect(names).not.toContain('banned');
    expect(answer.data!.suggestedPeople!.every((s) => s.reasons.join() === 'ACTIVE_LATELY')).toBe(true);
  });

  it('needs a viewer, and a sane `first`', async () => {
    expect((await suggested('', '')).errors?.[0]?.extensions?.type).toBe('NotAuthorizedError');
    expect((await suggested('(first: 0)')).errors?.[0]?.extensions?.type).toBe('ValidationError');
    expect((await suggested('(first: 51)')).errors?.[0]?.extensions?.type).toBe('ValidationError');
  });
});

describe('the home page', () => {
  it('shows a logged-in athlete the people they may know, each with why and a button to ask', async () => {
    const hal = await createAccount(db.prisma, { username: 'hal', password: 'a long enough password', displayName: 'Hal' });
    const amy = await db.prisma.person.findFirstOrThrow({ where: { usernameKey: 'amy' } });
    await makeFriends(db.prisma, hal.id, amy.id);
    const browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('hal', 'a long enough password')).status).toBe(302);
    const page = await (await browser.get('/')).text();
    expect(page).toContain('People you may know');
    const card = page.slice(page.indexOf('People you may know'));
    expect(card).toContain('/people/fran"');
    expect(card).toContain('1 friend in common');
    expect(card).toContain('aria-label="Ask to be friends with Athlete fran"');
    const asked = await browser.post('/people/fran/friendship', { action: 'request', back: '/' });
    expect(asked.status).toBe(303);
    expect(await (await browser.get('/')).text()).not.toContain('/people/fran"');
    // nobody logged in: no suggestions, and nothing computed for them
    expect(await (await api.fetch('/', { headers: { accept: 'text/html' } })).text()).not.toContain('People you may know');
  });
});
