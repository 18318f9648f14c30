// Who sees each entry: every read path, for every visibility and every kind of viewer. An
// author posts one entry of each visibility; each read path is asked, as each viewer, which of them it
// shows. The expectation is written out here, apart from the code's rule. A query field that returns
// entries and is missing from the walk fails the last test, so a new read path cannot forget the rule.
import { readFileSync } from 'node:fs';
import { getNamedType, isObjectType, isUnionType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

const VISIBILITIES = ['EVERYONE', 'FRIENDS', 'ONLY_ME'] as const;
type Visibility = (typeof VISIBILITIES)[number];
// `authorApp`: an app the author granted `read` but not `read_all` (the legacy default): it sees the
// author's entries as a friend would, never the only-me ones
// `blocked`: a former friend the author blocked (the friendship ended with the block); `blocker`: someone
// who blocked the author; `muter`: someone who muted the author (her entries leave their streams only)
const VIEWERS = ['anonymous', 'stranger', 'friend', 'author', 'authorApp', 'blocked', 'blocker', 'muter'] as const;
type ViewerKind = (typeof VIEWERS)[number];

/** Who sees what: the contract, written out. */
const SEES: Record<ViewerKind, Visibility[]> = {
  anonymous: ['EVERYONE'],
  stranger: ['EVERYONE'],
  friend: ['EVERYONE', 'FRIENDS'],
  author: ['EVERYONE', 'FRIENDS', 'ONLY_ME'],
  authorApp: ['EVERYONE', 'FRIENDS'],
  blocked: [],
  blocker: [],
  muter: ['EVERYONE'],
};

const HERE = { lat: 37.8044, lon: -122.2712 };
const gpx = readFileSync(new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url), 'utf8');

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens: Partial<Record<ViewerKind, string>> = {};
/** The author's entries by visibility, and each one's comment and like ids. */
const entries = {} as Record<Visibility, { id: number; commentId: number; likeId: number }>;
/** The global id of the shoes every one of them was run in. */
let gearId = '';

beforeAll(async () => {
  db = await createTestDatabase('visibility');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'ava' });
  const friend = await createPerson(db.prisma, { username: 'fay' });
  const stranger = await createPerson(db.prisma, { username: 'sam' });
  await makeFriends(db.prisma, author.id, friend.id);
  const blocked = await createPerson(db.prisma, { username: 'bea' });
  const blocker = await createPerson(db.prisma, { username: 'ben' });
  const muter = await createPerson(db.prisma, { username: 'mia' });
  await makeFriends(db.prisma, author.id, blocked.id);
  tokens.blocked = await createToken(db.prisma, blocked.id);
  tokens.blocker = await createToken(db.prisma, blocker.id);
  tokens.muter = await createToken(db.prisma, muter.id);
  tokens.author = await createToken(db.prisma, author.id);
  tokens.authorApp = await createToken(db.prisma, author.id, { scope: 'read entries:write profile:write' });
  tokens.friend = await createToken(db.prisma, friend.id);
  tokens.stranger = await createToken(db.prisma, stranger.id);
  // her shoes, worn in every run (the default for running)
  const shoes = await api.graphql<{ createGear: { gear: { id: string } } }>(
    'mutation { createGear(input: { name: "Ava’s shoes", kind: SHOES, defaultFor: [RUNNING] }) { gear { id } } }',
    {},
    tokens.author,
  );
  gearId = shoes.data!.createGear.gear.id;
  for (const visibility of VISIBILITIES) {
    const created = await api.graphql<{ createEntry: { entry: { id: number } } }>(
      `mutation ($input: CreateEntryInput!) { createEntry(input: $input) { entry { id: databaseId } } }`,
      { input: { message: `${visibility} run`, lat: HERE.lat, lon: HERE.lon, visibility, workout: { activityType: 'RUNNING' } } },
      tokens.author,
    );
    const id = created.data!.createEntry.entry.id;
    await api.graphql(
      'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
      { id, gpx },
      tokens.author,
    );
    // the author's own comment and like: every viewer who may see the entry may see them
    const comment = await api.graphql<{ createComment: { comment: { id: number } } }>(
      'mutation ($id: ID!) { createComment(input: { entryId: $id, body: "mine" }) { comment { id: databaseId } } }',
      { id },
      tokens.author,
    );
    const like = await api.graphql<{ likeEntry: { like: { id: number } } }>(
      'mutation ($id: ID!) { likeEntry(input: { entryId: $id }) { like { id: databaseId } } }',
      { id },
      tokens.author,
    );
    entries[visibility] = { id, commentId: comment.data!.createComment.comment.id, likeId: like.data!.likeEntry.like.id };
  }
  for (const [who, mutation] of [
    ['author', 'blockPerson(input: { username: "bea" })'],
    ['blocker', 'blockPerson(input: { username: "ava" })'],
    ['muter', 'mutePerson(input: { username: "ava" })'],
  ] as const) {
    const done = await api.graphql<Record<string, { error: unknown }>>(
      `mutation { result: ${mutation} { error { __typename } } }`,
      {},
      tokens[who],
    );
    expect(done.data!.result!.error).toBeNull();
  }
});
afterAll(() => db.destroy());

/** A JSON answer, read loosely: the assertions say what it holds. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Answer = any;

const auth = (viewer: ViewerKind): Record<string, string> => (viewer === 'anonymous' ? {} : { authorization: `Bearer ${tokens[viewer]}` });

/** Which of the author's entries a list of ids holds, by visibility. */
const shown = (ids: Array<number | string>) => VISIBILITIES.filter((v) => ids.map(Number).includes(entries[v].id));

async function graphqlIds(viewer: ViewerKind, query: string, pick: (data: Answer) => Array<{ id: number }>) {
  const result = await api.graphql(query, {}, viewer === 'anonymous' ? undefined : tokens[viewer]);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return shown(pick(result.data).map((node) => node.id));
}

async function json(viewer: ViewerKind, path: string): Promise<{ status: number; body: Answer }> {
  const response = await api.fetch(path, { headers: auth(viewer) });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** Each entry found by id: the ones that answer, by visibility. */
async function byId(viewer: ViewerKind, path: (entry: (typeof entries)[Visibility]) => string) {
  const found: Visibility[] = [];
  for (const visibility of VISIBILITIES) {
    const { status } = await json(viewer, path(entries[visibility]));
    if (status === 200) found.push(visibility);
    else
      expect(status, `${path(entries[visibility])} as ${viewer}`).toBe(
        viewer === 'anonymous' && path(entries[visibility]).includes('friends') ? 401 : 404,
      );
  }
  return found;
}

/** The friends stream holds the viewer's and their friends' entries: nobody else's holds the author's. */
const friendsOnly = (viewer: ViewerKind) => (['friend', 'author', 'authorApp'].includes(viewer) ? SEES[viewer] : []);
/** A stream of many people's entries: what the viewer may see, but for someone who muted the author. */
const manyPeople = (viewer: ViewerKind) => (viewer === 'muter' ? [] : SEES[viewer]);
/** The popular stream ranks, once for every viewer, the entries everyone may see (left out where blocked or muted). */
const publicOnly = (viewer: ViewerKind): Visibility[] => manyPeople(viewer).filter((v) => v === 'EVERYONE');
/** A moment after the entries were posted: the popular stream otherwise ranks up to the start of the hour. */
const until = () => Math.floor(Date.now() / 1000) + 1;

const edges = (connection: { edges: Array<{ node: { id: number } }> }) => connection.edges.map((edge) => edge.node);
const STREAM = '{ edges { node { id: databaseId } } }';

/** Every read path: its name, the query fields it covers, and what it shows a viewer. */
const READ_PATHS: Array<{
  name: string;
  covers?: string[];
  anonymous?: false;
  /** What it shows when that is less than all a viewer may see (a stream's own scope). */
  expected?: (viewer: ViewerKind) => Visibility[];
  read: (viewer: ViewerKind) => Promise<Visibility[]>;
}> = [
  {
    name: 'GraphQL publicStream',
    covers: ['publicStream'],
    expected: manyPeople,
    read: (v) => graphqlIds(v, `{ publicStream { ... on EntryConnection ${STREAM} } }`, (d) => edges(d.publicStream)),
  },
  {
    name: 'GraphQL personStream and Person.entries (by person and by searchPeople)',
    covers: ['personStream', 'person', 'me', 'searchPeople'],
    read: async (v) => {
      if (v === 'blocked') {
        // to the person she blocked, she does not exist
        const result = await api.graphql<{ personStream: null; person: null }>(
          `{ person(username: "ava") { username } personStream(username: "ava") { ... on EntryConnection ${STREAM} } }`,
          {},
          tokens.blocked,
        );
        expect(result.data).toEqual({ person: null, personStream: null });
        expect(result.errors?.[0]?.extensions).toMatchObject({ type: 'NotFoundError' });
        const found = await api.graphql<{ searchPeople: { edges: unknown[] } }>(
          '{ searchPeople(query: "ava") { edges { node { username } } } }',
          {},
          tokens.blocked,
        );
        expect(found.data!.searchPeople.edges).toEqual([]);
        return [];
      }
      const searched = await graphqlIds(v, `{ searchPeople(query: "ava") { edges { node { username entries ${STREAM} } } } }`, (d) =>
        edges(d.searchPeople.edges.find((edge: Answer) => edge.node.username === 'ava').node.entries),
      );
      const stream = await graphqlIds(v, `{ personStream(username: "ava") { ... on EntryConnection ${STREAM} } }`, (d) =>
        edges(d.personStream),
      );
      const nested = await graphqlIds(v, `{ person(username: "ava") { entries ${STREAM} } }`, (d) => edges(d.person.entries));
      expect(nested).toEqual(stream);
      expect(searched).toEqual(stream);
      return stream;
    },
  },
  {
    name: 'GraphQL nearbyStream',
    covers: ['nearbyStream'],
    expected: manyPeople,
    read: (v) =>
      graphqlIds(v, `{ nearbyStream(lat: ${HERE.lat}, lon: ${HERE.lon}) { ... on EntryConnection ${STREAM} } }`, (d) =>
        edges(d.nearbyStream),
      ),
  },
  {
    name: 'GraphQL friendsStream',
    covers: ['friendsStream'],
    anonymous: false,
    expected: friendsOnly,
    read: (v) =>
      graphqlIds(v, `{ friendsStream { ... on EntryConnection ${STREAM} } }`, (d) => (d.friendsStream.edges ? edges(d.friendsStream) : [])),
  },
  {
    name: 'GraphQL popularStream',
    covers: ['popularStream'],
    expected: publicOnly,
    read: (v) => graphqlIds(v, `{ popularStream(until: ${until()}) { ... on EntryConnection ${STREAM} } }`, (d) => edges(d.popularStream)),
  },
  {
    name: 'GraphQL entry(id), its comments and likes',
    covers: ['entry'],
    read: async (v) => {
      const found: Visibility[] = [];
      for (const visibility of VISIBILITIES) {
        const result = await api.graphql<{ entry: { id: number; comments: { edges: unknown[] }; likes: { edges: unknown[] } } | null }>(
          `{ entry(id: ${entries[visibility].id}) { id comments { edges { node { id } } } likes { edges { node { id } } } } }`,
          {},
          v === 'anonymous' ? undefined : tokens[v],
        );
        if (result.data?.entry) {
          expect(result.data.entry.comments.edges).toHaveLength(1);
          found.push(visibility);
        }
      }
      return found;
    },
  },
  {
    name: 'GraphQL gear(id) and its workouts',
    covers: ['gear'],
    read: async (v) => {
      const result = await api.graphql<{ gear: { workouts: { edges: Array<{ node: { id: number } }> } } | null }>(
        `query ($id: ID!) { gear(id: $id) { workouts ${STREAM} } }`,
        { id: gearId },
        v === 'anonymous' ? undefined : tokens[v],
      );
      expect(result.errors).toBeUndefined();
      return result.data!.gear ? shown(edges(result.data!.gear.workouts).map((node) => node.id)) : [];
    },
  },
  {
    name: 'GraphQL searchEntries',
    covers: ['searchEntries'],
    expected: manyPeople,
    read: (v) => graphqlIds(v, `{ searchEntries(query: "run") ${STREAM} }`, (d) => edges(d.searchEntries)),
  },
  {
    name: 'REST GET /entries.json',
    expected: manyPeople,
    read: async (v) => shown((await json(v, '/entries.json')).body.entries.map((e: Answer) => e.id)),
  },
  {
    name: 'REST GET /people/ava/entries.json',
    read: async (v) => {
      const { status, body } = await json(v, '/people/ava/entries.json');
      expect(status).toBe(v === 'blocked' ? 404 : 200);
      return status === 200 ? shown(body.entries.map((e: Answer) => e.id)) : [];
    },
  },
  {
    name: 'REST GET /entries/nearby',
    expected: manyPeople,
    read: async (v) => shown((await json(v, `/entries/nearby/${HERE.lat},${HERE.lon}.json`)).body.entries.map((e: Answer) => e.id)),
  },
  {
    name: 'REST GET /entries/friends.json',
    anonymous: false,
    expected: friendsOnly,
    read: async (v) => shown((await json(v, '/entries/friends.json')).body.entries.map((e: Answer) => e.id)),
  },
  {
    name: 'REST GET /entries/popular.json',
    expected: publicOnly,
    read: async (v) => shown((await json(v, `/entries/popular.json?until=${until()}`)).body.entries.map((e: Answer) => e.id)),
  },
  { name: 'REST GET /entries/{id}.json', read: (v) => byId(v, (e) => `/entries/${e.id}.json`) },
  { name: 'REST GET /entries/{id}/comments/{id}', read: (v) => byId(v, (e) => `/entries/${e.id}/comments/${e.commentId}.json`) },
  { name: 'REST GET /entries/{id}/likes/{id}', read: (v) => byId(v, (e) => `/entries/${e.id}/likes/${e.likeId}.json`) },
  {
    name: '/api/v1 GET /entries',
    expected: manyPeople,
    read: async (v) =>
      shown(edges((await json(v, '/api/v1/entries')).body).map((e) => (e as unknown as { databaseId: number }).databaseId)),
  },
  { name: '/api/v1 GET /entries/{id}', read: (v) => byId(v, (e) => `/api/v1/entries/${e.id}`) },
];

describe('every read path shows each viewer exactly what they may see', () => {
  for (const path of READ_PATHS) {
    for (const viewer of VIEWERS) {
      if (viewer === 'anonymous' && path.anonymous === false) continue;
      it(`${path.name}, as ${viewer === 'anonymous' ? 'someone without a token' : `an app with the ${viewer}'s token`}`, async () => {
        expect(await path.read(viewer)).toEqual(path.expected?.(viewer) ?? SEES[viewer]);
      });
    }
  }

  it('the pages: a hidden entry’s page is a 404, exactly like a missing one', async () => {
    for (const visibility of VISIBILITIES) {
      const page = await api.fetch(`/entries/${entries[visibility].id}`, { headers: { accept: 'text/html' } });
      expect(page.status, visibility).toBe(visibility === 'EVERYONE' ? 200 : 404);
    }
    const missing = await api.fetch('/entries/999999', { headers: { accept: 'text/html' } });
    const hidden = await api.fetch(`/entries/${entries.ONLY_ME.id}`, { headers: { accept: 'text/html' } });
    expect((await hidden.text()).replace(/\d+/g, '#')).toBe((await missing.text()).replace(/\d+/g, '#'));
  });

  it('the response cache: an author’s read never fills what an anonymous read gets', async () => {
    await json('author', '/entries.json');
    await json('author', `/entries/${entries.ONLY_ME.id}.json`);
    expect(shown((await json('anonymous', '/entries.json')).body.entries.map((e: Answer) => e.id))).toEqual(['EVERYONE']);
    expect((await json('anonymous', `/entries/${entries.ONLY_ME.id}.json`)).status).toBe(404);
  });

  it('every query field that can return entries is walked above', () => {
    const walked = new Set(READ_PATHS.flatMap((path) => path.covers ?? []));
    const returnsEntries = (typeName: string, seen = new Set<string>()): boolean => {
      if (typeName === 'Entry') return true;
      if (seen.has(typeName)) return false;
      seen.add(typeName);
      const type = schema.getType(typeName);
      if (isUnionType(type)) return type.getTypes().some((member) => returnsEntries(member.name, seen));
      if (!isObjectType(type)) return false;
      return Object.values(type.getFields()).some((field) => returnsEntries(getNamedType(field.type).name, seen));
    };
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((field) => returnsEntries(getNamedType(field.type).name));
    // a route's entries and a suggestion's person's entries are Person.entries, walked through person(username);
    // a notification's entry is answered through the per-entry check (notifications.test.ts hides one); a
    // report's people (moderators only) are Person.entries too
    // (blockedPeople and mutedPeople: the viewer's own list of people, whose entries come through Person.entries)
    const throughPerson = new Set(['route', 'suggestedPeople', 'notifications', 'reports', 'blockedPeople', 'mutedPeople']);
    expect(fields.map((field) => field.name).filter((name) => !walked.has(name) && !throughPerson.has(name))).toEqual([]);
  });
});

describe('writes never reveal a hidden entry', () => {
  it('a stranger’s comment, like, unlike, delete or track on a hidden entry is “not found”, never “forbidden”', async () => {
    const id = entries.ONLY_ME.id;
    for (const mutation of [
      `createComment(input: { entryId: ${id}, body: "hi" }) { error { __typename } }`,
      `likeEntry(input: { entryId: ${id} }) { error { __typename } }`,
      `unlikeEntry(input: { entryId: ${id} }) { error { __typename } }`,
      `deleteEntry(input: { id: ${id} }) { error { __typename } }`,
      `updateEntry(input: { id: ${id}, visibility: EVERYONE }) { error { __typename } }`,
      `setEntryTrack(input: { entryId: ${id}, gpx: "<gpx/>" }) { error { __typename } }`,
    ]) {
      const result = await api.graphql<Record<string, { error: { __typename: string } | null }>>(
        `mutation { ${mutation} }`,
        {},
        tokens.stranger,
      );
      expect(Object.values(result.data!)[0]!.error?.__typename, mutation).toBe('NotFoundError');
    }
    const rest = await api.fetch(`/entries/${id}/comments.json`, {
      method: 'POST',
      headers: { ...auth('stranger'), 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'hi' }),
    });
    expect(rest.status).toBe(404);
  });

  it('a friend may comment on a friends-only entry; the author changes who sees it, and it takes effect at once', async () => {
    const id = entries.FRIENDS.id;
    const comment = await api.graphql<{ createComment: { error: { __typename: string } | null } }>(
      `mutation { createComment(input: { entryId: ${id}, body: "nice" }) { error { __typename } } }`,
      {},
      tokens.friend,
    );
    expect(comment.data!.createComment.error).toBeNull();
    const forbidden = await api.graphql<{ updateEntry: { error: { __typename: string } | null } }>(
      `mutation { updateEntry(input: { id: ${id}, visibility: EVERYONE }) { error { __typename } } }`,
      {},
      tokens.friend,
    );
    expect(forbidden.data!.updateEntry.error?.__typename).toBe('NotAuthorizedError');
    const opened = await api.graphql<{ updateEntry: { entry: { visibility: string } } }>(
      `mutation { updateEntry(input: { id: ${id}, visibility: EVERYONE }) { entry { visibility } } }`,
      {},
      tokens.author,
    );
    expect(opened.data!.updateEntry.entry.visibility).toBe('EVERYONE');
    expect((await json('anonymous', `/entries/${id}.json`)).status).toBe(200);
    await api.graphql(`mutation { updateEntry(input: { id: ${id}, visibility: FRIENDS }) { error { __typename } } }`, {}, tokens.author);
    expect((await json('anonymous', `/entries/${id}.json`)).status).toBe(404);
  });
});

describe('defaults', () => {
  it('an entry posted without a visibility takes the person’s default; REST takes `visibility` as a form field', async () => {
    const me = await api.graphql<{ updateProfile: { person: { defaultVisibility: string } } }>(
      'mutation { updateProfile(input: { defaultVisibility: FRIENDS }) { person { defaultVisibility } } }',
      {},
      tokens.stranger,
    );
    expect(me.data!.updateProfile.person.defaultVisibility).toBe('FRIENDS');
    const posted = await api.graphql<{ createEntry: { entry: { visibility: string } } }>(
      'mutation { createEntry(input: { message: "by default" }) { entry { visibility } } }',
      {},
      tokens.stranger,
    );
    expect(posted.data!.createEntry.entry.visibility).toBe('FRIENDS');
    const form = await api.fetch('/entries.json', {
      method: 'POST',
      headers: { ...auth('stranger'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=just+me&visibility=only_me',
    });
    expect(form.status).toBe(201);
    const id = (await form.json()).id as number;
    expect((await json('author', `/entries/${id}.json`)).status).toBe(404);
    expect((await json('stranger', `/entries/${id}.json`)).status).toBe(200);
    const wrong = await api.fetch('/entries.json', {
      method: 'POST',
      headers: { ...auth('stranger'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=x&visibility=secret',
    });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).error.fields[0].field).toBe('visibility');
    // someone else's default is theirs alone
    const other = await api.graphql<{ person: { defaultVisibility: string | null } }>(
      '{ person(username: "sam") { defaultVisibility } }',
      {},
      tokens.author,
    );
    expect(other.data!.person.defaultVisibility).toBeNull();
  });

  it('existing entries and clients that never send the field keep EVERYONE', async () => {
    const legacy = await api.fetch('/entries.json', {
      method: 'POST',
      headers: { ...auth('friend'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=old+client',
    });
    const id = (await legacy.json()).id as number;
    expect((await json('anonymous', `/entries/${id}.json`)).status).toBe(200);
  });
});
