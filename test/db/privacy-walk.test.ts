// The walk that closes the class: every way out, found by itself, run as anonymous, a stranger and a
// blocked person (and, for the fediverse, any server) over entries they may not see and places they may not be shown. No hidden message,
// no in-zone coordinate, nothing of a blocker reaches them. The ways out are not listed here: every
// GraphQL query field (introspected, each selected to a depth by its type), every GET operation of
// /openapi.json (the legacy paths and /api/v1), and the athlete's pages. A field or path added later
// is walked without anyone remembering to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { registerApp } from '../../src/db/oauth-clients.ts';
import { issueAccessToken } from '../../src/db/oauth-tokens.ts';
import { mailTokens } from '../../src/mail/tokens.ts';
import { type MailWorker, startMailWorker } from '../../src/mail/worker.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/deliveries.ts';
import { setWebhook } from '../../src/webhooks/settings.ts';
import { BASE, testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';
import { type MailSink, startMailSink } from '../support/smtp.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;

/** What must never come out: hidden entries' words, the blocker's words, an in-zone position. */
const ONLY_ME = 'Walkmarker only me';
const FRIENDS_ONLY = 'Walkmarker friends only';
const BLOCKER_SAYS = 'Walkmarker blocker says';
const HOME = { lat: 48.85837, lon: 2.29448 };
/** How an in-zone position would show in any answer: its digits, in JSON or in a page. */
const HOME_DIGITS = [/48\.8583/, /2\.2944/];

const fixture = { owner: '', blocker: '', ids: [] as number[], people: [] as number[], gear: [] as number[] };
type Viewer = { token: string | null; username: string | null; forbidden: Array<string | RegExp> };
const viewers: Record<'anonymous' | 'stranger' | 'blocked', Viewer> = {
  anonymous: { token: null, username: null, forbidden: [] },
  stranger: { token: null, username: null, forbidden: [] },
  blocked: { token: null, username: null, forbidden: [] },
};
/** The owner, who may see it all: the walk finds their only-me entry for them, so it can find a leak. */
const control: Viewer = { token: null, username: null, forbidden: [] };
const PASSWORD = 'a long walk password';

beforeAll(async () => {
  db = await createTestDatabase('walk');
  // federated: the fediverse is one more way out, and its fields and paths are walked with the rest
  api = testApp(db, { RESPONSE_CACHE_MB: '0', FEDERATION: 'true', PUBLIC_URL: BASE });
  const owner = await createPerson(db.prisma, { username: 'walkowner' });
  const friend = await createPerson(db.prisma, { username: 'walkfriend' });
  const blocker = await createPerson(db.prisma, { username: 'walkblocker' });
  const stranger = await createAccount(db.prisma, { username: 'walkstranger', password: PASSWORD, displayName: 'Stranger' });
  const blocked = await createAccount(db.prisma, { username: 'walkblocked', password: PASSWORD, displayName: 'Blocked' });
  await makeFriends(db.prisma, owner.id, friend.id);
  await db.prisma.privacyZone.create({ data: { personId: owner.id, lat: HOME.lat, lon: HOME.lon, radiusMeters: 400 } });
  const onlyMe = await createEntry(db.prisma, owner.id, { message: ONLY_ME, visibility: 'only_me', lat: HOME.lat, lon: HOME.lon });
  const friendsOnly = await createEntry(db.prisma, owner.id, { message: FRIENDS_ONLY, visibility: 'friends' });
  const atHome = await createEntry(db.prisma, owner.id, { message: 'Public, from home', lat: HOME.lat, lon: HOME.lon });
  const blockers = await createEntry(db.prisma, blocker.id, { message: BLOCKER_SAYS });
  await db.prisma.block.create({ data: { blockerId: blocker.id, blockedId: blocked.id } });
  await db.prisma.person.updateMany({ where: { id: { in: [blocker.id, blocked.id] } }, data: { keptApart: 1 } });
  fixture.owner = owner.username;
  fixture.blocker = blocker.username;
  // a public run past home: its points inside the zone (latitude 48.8583…, 43 m east of it) must never
  // leave, whatever a field makes of them (outline, points, streams, laps, splits, GPX)
  const run = await createEntry(db.prisma, owner.id, { message: 'Public run past home', workout: { activityType: 'running' } });
  const ownerToken = await createToken(db.prisma, owner.id);
  const points = Array.from({ length: 171 }, (_, i) => {
    const time = new Date(Date.UTC(2026, 5, 1, 7) + i * 4000).toISOString();
    return `<trkpt lat="${(48.85 + i * 0.0001).toFixed(4)}" lon="2.2950"><ele>${35 + (i % 7)}</ele><time>${time}</time><extensions><hr>${120 + (i % 30)}</hr></extensions></trkpt>`;
  });
  const put = await api.fetch(`/entries/${run.id}/track.json`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/gpx+xml' },
    body: `<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`,
  });
  expect(put.status).toBe(200);
  // shoes worn only in an only-me workout: nobody else learns they exist (their name says only me)
  const shoes = await db.prisma.gear.create({ data: { ownerId: owner.id, name: `${ONLY_ME} shoes`, kind: 'shoes' } });
  const secretRun = await createEntry(db.prisma, owner.id, { visibility: 'only_me', workout: { activityType: 'running', duration: 600 } });
  await db.prisma.workout.update({ where: { entryId: secretRun.id }, data: { gearId: shoes.id } });
  fixture.gear = [shoes.id];
  fixture.ids = [onlyMe.id, friendsOnly.id, atHome.id, blockers.id, run.id];
  fixture.people = [owner.id, blocker.id];
  const hidden = [ONLY_ME, FRIENDS_ONLY, ...HOME_DIGITS];
  viewers.anonymous.forbidden = hidden;
  viewers.stranger = { token: await createToken(db.prisma, stranger.id), username: stranger.username, forbidden: hidden };
  viewers.blocked = { token: await createToken(db.prisma, blocked.id), username: blocked.username, forbidden: [...hidden, BLOCKER_SAYS] };
  Object.assign(control, { token: await createToken(db.prisma, owner.id), forbidden: [ONLY_ME] });
});

// --- what leaves by itself: webhooks to the owner's apps, mails to the people an act reaches ----------

/** Webhook bodies received, by the app's scope: `read` (a narrower token) and `read read_all` (the control). */
const hooks = { narrow: [] as string[], whole: [] as string[] };
let receiver: Server;
let webhooks: WebhookWorker;
let sink: MailSink;
let mails: MailWorker;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    // a registration's challenge, echoed
    if (req.method === 'GET') {
      const challenge = new URL(req.url!, BASE).searchParams.get('hub.challenge');
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'hub.challenge': challenge }));
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      hooks[req.url?.startsWith('/narrow') ? 'narrow' : 'whole'].push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const developer = await createPerson(db.prisma, { username: 'walkdeveloper' });
  const owner = await db.prisma.person.findFirstOrThrow({ where: { username: fixture.owner } });
  for (const [path, scope] of [
    ['narrow', 'read'],
    ['whole', 'read read_all'],
  ] as const) {
    const app = await registerApp(db.prisma, developer.id, {
      name: `Walk ${path}`,
      redirectUris: ['https://walk.example/cb'],
      confidential: true,
    });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/${path}`;
    await setWebhook(db.prisma, developer.id, app.clientId, url, { allowPrivate: true });
    await issueAccessToken(db.prisma, { clientId: app.id, personId: owner.id, scope });
  }
  webhooks = startWebhookWorker(db.prisma, { pollMs: 3_600_000, retryBaseSeconds: 1, origin: BASE, allowPrivate: true });
  sink = await startMailSink();
  mails = startMailWorker(db.prisma, {
    smtpUrl: sink.url,
    from: 'Milepost <no-reply@milepost.test>',
    pollMs: 3_600_000,
    origin: BASE,
    tokens: mailTokens('a walk secret long enough for the mails'),
    digestEveryMs: 0,
  });
  // everyone the acts may reach reads mail
  for (const username of ['walkstranger', 'walkblocked', 'walkfriend'])
    await db.prisma.person.updateMany({ where: { username }, data: { email: `${username}@example.com`, emailVerifiedAt: new Date() } });
});

afterAll(async () => {
  await Promise.all([webhooks?.stop(), mails?.stop(), sink?.close()]);
  await new Promise((resolve) => receiver.close(resolve));
  await db.destroy();
});

/** A token of the blocker, to post the words the blocked person must never hear of. */
async function blockerToken(): Promise<string> {
  const blocker = await db.prisma.person.findFirstOrThrow({ where: { username: fixture.blocker } });
  return createToken(db.prisma, blocker.id);
}

/** What of `text` must not have left: the first forbidden thing found, or null. */
function leaked(text: string, forbidden: Array<string | RegExp>): string | null {
  for (const thing of forbidden) if (typeof thing === 'string' ? text.includes(thing) : thing.test(text)) return String(thing);
  return null;
}

// --- GraphQL: every query field, selected to a depth by its type ---------------------------------

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  args: Array<{ name: string; type: TypeRef }>;
  type: TypeRef;
}
interface FullType {
  name: string;
  kind: string;
  fields: Field[] | null;
  possibleTypes: Array<{ name: string }> | null;
}

const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);
const required = (type: TypeRef) => type.kind === 'NON_NULL';

/** Values for an argument, by its name and type; null when the walk has none to give (the field is walked without it, if it may be). */
function argumentValues(name: string, type: TypeRef): string[] | null {
  const base = named(type).name;
  if (name === 'username' || name === 'usernames') return [`"${fixture.owner}"`, `"${fixture.blocker}"`];
  if (base === 'ID' || name.endsWith('Id') || name === 'id') {
    const entries = fixture.ids.map((id) => `"${encodeGlobalID('Entry', String(id))}"`);
    const people = fixture.people.map((id) => `"${encodeGlobalID('Person', String(id))}"`);
    const gear = fixture.gear.map((id) => `"${encodeGlobalID('Gear', String(id))}"`);
    return [...entries, ...people, ...gear, ...fixture.ids.map(String), ...fixture.gear.map(String)];
  }
  if (name === 'lat') return [String(HOME.lat)];
  if (name === 'lon') return [String(HOME.lon)];
  if (name === 'radius') return ['5'];
  if (name === 'query') return ['"Walkmarker"'];
  if (base === 'Int' && name === 'first') return ['5'];
  return null;
}

/** A selection of `type` to `depth`: its leaf fields, and its objects' (fields without required arguments). */
function selection(types: Map<string, FullType>, typeName: string, depth: number): string {
  const type = types.get(typeName);
  if (!type) return '';
  if (type.kind === 'UNION' || type.kind === 'INTERFACE') {
    const parts = (type.possibleTypes ?? []).map((possible) => `... on ${possible.name} { ${selection(types, possible.name, depth)} }`);
    return `__typename ${parts.join(' ')}`;
  }
  const parts: string[] = ['__typename'];
  for (const field of type.fields ?? []) {
    if (field.args.some((arg) => required(arg.type))) continue;
    const inner = named(field.type);
    const kind = types.get(inner.name!)?.kind ?? inner.kind;
    if (kind === 'SCALAR' || kind === 'ENUM') parts.push(field.name);
    else if (depth > 0) {
      const nested = selection(types, inner.name!, depth - 1);
      // lists a little long, so that the cost limit lets the whole selection through
      const first = field.args.some((arg) => arg.name === 'first') ? '(first: 2)' : '';
      if (nested) parts.push(`${field.name}${first} { ${nested} }`);
    }
  }
  return parts.join(' ');
}

async function introspect(): Promise<{ types: Map<string, FullType>; query: FullType; subscription: FullType }> {
  const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
  const result = await api.graphql<{ __schema: { queryType: { name: string }; subscriptionType: { name: string }; types: FullType[] } }>(
    `{ __schema { queryType { name } subscriptionType { name } types { name kind possibleTypes { name } fields { name type { ${typeRef} } args { name type { ${typeRef} } } } } } }`,
  );
  const schema = result.data!.__schema;
  const types = new Map(schema.types.map((type) => [type.name, type]));
  return { types, query: types.get(schema.queryType.name)!, subscription: types.get(schema.subscriptionType.name)! };
}

/** A subscription over server-sent events, in-process: everything it has said so far, and how to end it. */
async function listen(query: string, token: string | null) {
  const controller = new AbortController();
  const response = await api.fetch('/graphql', {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  const heard = { text: '' };
  const reader = response.body?.getReader();
  void (async () => {
    try {
      for (;;) {
        const read = await reader!.read();
        if (read.done) return;
        heard.text += new TextDecoder().decode(read.value);
      }
    } catch {
      // ended
    }
  })();
  return { heard, stop: () => controller.abort() };
}

/** Every way to call each query field with the walk's values: one call per value of each argument it can fill. */
function calls(field: Field): string[] {
  const filled: Array<[string, string[]]> = [];
  for (const arg of field.args) {
    const values = argumentValues(arg.name, arg.type);
    if (values) filled.push([arg.name, values]);
    else if (required(arg.type)) return [];
  }
  if (filled.length === 0) return [''];
  // each filled argument walks its values with the others at their first
  const out = new Set<string>();
  for (const [name, values] of filled) {
    for (const value of values) {
      const args = filled.map(([other, otherValues]) => `${other}: ${other === name ? value : otherValues[0]}`);
      out.add(`(${args.join(', ')})`);
    }
  }
  return [...out];
}

describe('every way out, walked', () => {
  it('GraphQL: no query field shows anyone what they may not see', async () => {
    const { types, query } = await introspect();
    const problems: string[] = [];
    let walked = 0;
    for (const field of query.fields ?? []) {
      if (field.name.startsWith('__')) continue;
      const inner = named(field.type).name!;
      const kind = types.get(inner)?.kind;
      const body = kind === 'SCALAR' || kind === 'ENUM' ? '' : `{ ${selection(types, inner, 3)} }`;
      for (const args of calls(field)) {
        for (const [who, viewer] of [...Object.entries(viewers), ['control', control] as const]) {
          const result = await api.graphql(`{ ${field.name}${args} ${body} }`, {}, viewer.token ?? undefined);
          walked += 1;
          // a selection the limits refuse walks nothing: none may be
          const limited = result.errors?.find((error) => /COST_LIMIT|DEPTH|TOKEN/.test(String(error.extensions?.code)));
          if (limited) problems.push(`${who}: ${field.name}${args} was refused: ${limited.message}`);
          const text = JSON.stringify(result.data ?? null);
          const found = leaked(text, viewer.forbidden);
          if (found) problems.push(`${who}: ${field.name}${args} shows ${found}`);
        }
      }
    }
    expect(walked).toBeGreaterThan(50);
    // the walk reaches what hides: the owner is shown their only-me entry by some field
    expect(problems.filter((problem) => problem.startsWith('control:')).length).toBeGreaterThan(0);
    expect(problems.filter((problem) => !problem.startsWith('control:'))).toEqual([]);
  }, 120_000);

  it('REST: no GET of /openapi.json shows anyone what they may not see', async () => {
    const doc = (await (await api.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const problems: string[] = [];
    let walked = 0;
    const fill = (template: string): string[] => {
      let paths = [template];
      const substitutions: Array<[RegExp, string[]]> = [
        [/\{(id|entryId|entry_id)\}/, fixture.ids.map(String)],
        [/\{(username|user)\}/, [fixture.owner, fixture.blocker]],
        [/\{lat\}/, [String(HOME.lat)]],
        [/\{lon\}/, [String(HOME.lon)]],
      ];
      for (const [pattern, values] of substitutions)
        paths = paths.flatMap((path) => (pattern.test(path) ? values.map((v) => path.replace(pattern, v)) : [path]));
      return paths.filter((path) => !/\{\w+\}/.test(path));
    };
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!('get' in operations)) continue;
      const query = template.includes('search') ? '?query=Walkmarker&q=Walkmarker' : '';
      for (const path of fill(template)) {
        for (const [who, viewer] of [...Object.entries(viewers), ['control', control] as const]) {
          const response = await api.fetch(`${path}${query}`, viewer.token ? { headers: { authorization: `Bearer ${viewer.token}` } } : {});
          walked += 1;
          const found = leaked(await response.text(), viewer.forbidden);
          if (found) problems.push(`${who}: GET ${path} shows ${found}`);
        }
      }
    }
    expect(walked).toBeGreaterThan(30);
    expect(problems.filter((problem) => problem.startsWith('control:')).length).toBeGreaterThan(0);
    expect(problems.filter((problem) => !problem.startsWith('control:'))).toEqual([]);
  }, 120_000);

  it('subscriptions, webhooks and mails: none tells anyone of what they may not see, as it happens', async () => {
    const { types, subscription } = await introspect();
    const listeners: Array<{ who: string; what: string; heard: { text: string }; stop: () => void; forbidden: Array<string | RegExp> }> =
      [];
    for (const field of subscription.fields ?? []) {
      const inner = named(field.type).name!;
      const kind = types.get(inner)?.kind;
      const body = kind === 'SCALAR' || kind === 'ENUM' ? '' : `{ ${selection(types, inner, 2)} }`;
      for (const args of calls(field)) {
        for (const [who, viewer] of [...Object.entries(viewers), ['control', control] as const]) {
          const { heard, stop } = await listen(`subscription { ${field.name}${args} ${body} }`, viewer.token);
          listeners.push({ who, what: `${field.name}${args}`, heard, stop, forbidden: viewer.forbidden });
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    // what happens meanwhile: hidden entries posted, at home and elsewhere; comments and likes on them;
    // the blocker's words; a public entry at home; a friends-only entry made only-me
    const as = (token: string | null, query: string) => api.graphql(query, {}, token ?? undefined);
    const owner = control.token;
    const posted = async (input: string) =>
      (await as(owner, `mutation { createEntry(input: { ${input} }) { entry { databaseId } } }`)) as {
        data?: { createEntry: { entry: { databaseId: number } } };
      };
    // each mentions everyone the walk reads mail for
    const mentions = '@walkstranger @walkblocked @walkfriend';
    const hidden = (await posted(`message: "${ONLY_ME} live ${mentions}", visibility: ONLY_ME, lat: ${HOME.lat}, lon: ${HOME.lon}`)).data!
      .createEntry.entry.databaseId;
    const friendsOnly = (await posted(`message: "${FRIENDS_ONLY} live ${mentions}", visibility: FRIENDS`)).data!.createEntry.entry
      .databaseId;
    // the control of the mails: a friend is told of a friends-only entry that stays so
    const forFriends = (await posted(`message: "${FRIENDS_ONLY} kept ${mentions}", visibility: FRIENDS`)).data!.createEntry.entry
      .databaseId;
    await posted(`message: "Public, home again", lat: ${HOME.lat}, lon: ${HOME.lon}`);
    await as(owner, `mutation { createComment(input: { entryId: ${hidden}, body: "${ONLY_ME} comment" }) { error { __typename } } }`);
    await as(owner, `mutation { likeEntry(input: { entryId: ${friendsOnly} }) { error { __typename } } }`);
    await as(owner, `mutation { updateEntry(input: { id: ${friendsOnly}, visibility: ONLY_ME }) { error { __typename } } }`);
    await api.graphql(
      `mutation { createEntry(input: { message: "${BLOCKER_SAYS} live @walkblocked" }) { error { __typename } } }`,
      {},
      await blockerToken(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const listener of listeners) listener.stop();
    const problems = listeners.flatMap(({ who, what, heard, forbidden }) => {
      const found = leaked(heard.text, forbidden);
      return found ? [`${who}: ${what} told of ${found}`] : [];
    });
    expect(listeners.length).toBeGreaterThan(20);
    // the walk hears what happens: the owner is told of their own only-me entry
    expect(problems.filter((problem) => problem.startsWith('control:')).length).toBeGreaterThan(0);
    expect(problems.filter((problem) => !problem.startsWith('control:'))).toEqual([]);

    // webhooks, as the apps' tokens may read: the narrower one (`read`) hears nothing of the only-me
    // entries nor of the place at home; the control (`read_all`) hears of the only-me entry
    await webhooks.tick();
    const onlyMeEvent = new RegExp(`"entry_id":${hidden}\\b`);
    expect(hooks.whole.join('\n')).toMatch(onlyMeEvent);
    expect(hooks.narrow.length).toBeGreaterThan(0);
    for (const body of hooks.narrow) expect(leaked(body, [ONLY_ME, onlyMeEvent, ...HOME_DIGITS])).toBeNull();

    // mails, as their readers may see at sending: an entry that is hidden from them now, or the
    // blocker, is never named
    await mails.tick();
    const mailed = (username: string) =>
      sink.received.filter((mail) => JSON.stringify(mail.to).includes(`${username}@`)).map((mail) => `${mail.subject}\n${mail.text}`);
    const link = (id: number) => `/entries/${id}\n`;
    expect(mailed('walkfriend').join('\n')).toContain(link(forFriends));
    const mailProblems = [
      ...mailed('walkfriend').map((text) => leaked(text, [link(hidden), link(friendsOnly)])),
      ...mailed('walkstranger').map((text) => leaked(text, [link(hidden), link(friendsOnly), link(forFriends)])),
      ...mailed('walkblocked').map((text) => leaked(text, [link(hidden), link(friendsOnly), link(forFriends), 'walkblocker'])),
    ].filter((found) => found !== null);
    expect(mailProblems).toEqual([]);
  }, 60_000);

  it('the fediverse: no actor, Note, collection or discovery document shows a server what anyone may not see', async () => {
    const problems: string[] = [];
    const owner = fixture.owner;
    const paths = [
      ...fixture.ids.map((id) => `/entries/${id}`),
      `/people/${owner}`,
      `/people/${fixture.blocker}`,
      `/people/${owner}/outbox`,
      `/people/${owner}/outbox?cursor=`,
      `/people/${owner}/followers`,
      `/people/${owner}/followers?cursor=0`,
      `/people/${owner}/following?cursor=0`,
      `/.well-known/webfinger?resource=acct:${owner}@milepost.test`,
      '/nodeinfo/2.1',
    ];
    const notes: string[] = [];
    for (const path of paths) {
      const response = await api.fetch(path, { headers: { accept: 'application/activity+json' } });
      const text = await response.text();
      const found = leaked(text, viewers.anonymous.forbidden);
      if (found) problems.push(`${path} shows ${found}`);
      if (response.ok && text.includes('"type":"Note"')) notes.push(path);
    }
    expect(problems).toEqual([]);
    // the walk reaches what may leave: the public entries are Notes (the one from home without its place)
    expect(notes.length).toBeGreaterThanOrEqual(2);
    const outbox = await (await api.fetch(`/people/${owner}/outbox?cursor=`, { headers: { accept: 'application/activity+json' } })).text();
    expect(outbox).toContain('Public, from home');
  });

  it('the pages: none shows anyone what they may not see', async () => {
    const problems: string[] = [];
    const paths = [
      '/',
      ...fixture.ids.map((id) => `/entries/${id}`),
      `/people/${fixture.owner}`,
      `/people/${fixture.blocker}`,
      `/people/${fixture.owner}/stats`,
      '/search?q=Walkmarker',
      // asked from near the home, not at it: a page repeats the place it was asked about
      '/nearby?lat=48.861&lon=2.297&radius=5',
    ];
    for (const [who, viewer] of Object.entries(viewers)) {
      // the athlete's own session in a browser; anonymous without one
      const browser = new TestBrowser(api.fetch);
      if (viewer.username) expect((await browser.logIn(viewer.username, PASSWORD)).status).toBe(302);
      for (const path of paths) {
        const found = leaked(await (await browser.get(path)).text(), viewer.forbidden);
        if (found) problems.push(`${who}: ${path} shows ${found}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
