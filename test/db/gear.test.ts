// Gear, on both databases: an athlete's shoes and bikes, chosen when posting or importing (by default
// for the activity), changed afterwards, with totals over what each reader may see; seen by whoever
// may see a workout done in it and by nobody else; through REST's `workout[gear_id]`; carried by the
// export and read back by the archive import.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { accountExport } from '../../src/db/account-export.ts';
import { createAccount } from '../../src/db/account-sessions.ts';
import { importArchive } from '../../src/imports/archive.ts';
import { closeFitPool } from '../../src/imports/fit-pool.ts';
import { createMediaStore } from '../../src/media/store.ts';
import { fitFile, pointsAlong } from '../support/activity-files.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let dir: string;
const people = { owner: 0, friend: 0, stranger: 0 };
const tokens = { owner: '', friend: '', stranger: '' };

async function graphql<T>(token: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await api.graphql<T>(query, variables, token);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

interface Gear {
  id: string;
  databaseId: number;
  name: string;
  retired: boolean;
  defaultFor: string[] | null;
  totals: { workouts: number; distance: { value: number; units: string }; movingSeconds: number };
}
const GEAR = 'id databaseId name retired defaultFor totals { workouts distance { value units } movingSeconds }';

async function createGear(input: Record<string, unknown>, token = tokens.owner): Promise<Gear> {
  const data = await graphql<{ createGear: { gear: Gear; error: unknown } }>(
    token,
    `mutation ($input: CreateGearInput!) { createGear(input: $input) { gear { ${GEAR} } error { __typename } } }`,
    { input },
  );
  expect(data.createGear.error).toBeNull();
  return data.createGear.gear;
}

async function postWorkout(workout: Record<string, unknown>, visibility = 'EVERYONE', token = tokens.owner) {
  return graphql<{ createEntry: { entry: { databaseId: number; workout: { gear: { name: string } | null } } | null; error: unknown } }>(
    token,
    `mutation ($input: CreateEntryInput!) { createEntry(input: $input) {
      entry { databaseId workout { gear { name } } } error { __typename ... on ValidationError { issues { path message } } } } }`,
    { input: { workout, visibility } },
  ).then((data) => data.createEntry);
}

async function gearOf(username: string, token?: string): Promise<Gear[]> {
  const data = await graphql<{ person: { gear: Gear[] } }>(token, `query ($u: String!) { person(username: $u) { gear { ${GEAR} } } }`, {
    u: username,
  });
  return data.person.gear;
}

beforeAll(async () => {
  db = await createTestDatabase('gear');
  api = testApp(db);
  dir = mkdtempSync(path.join(tmpdir(), 'milepost-gear-'));
  const owner = await createPerson(db.prisma, { username: 'kestrel', units: 'kilometers' });
  const friend = await createPerson(db.prisma, { username: 'plover' });
  const stranger = await createPerson(db.prisma, { username: 'curlew' });
  await makeFriends(db.prisma, owner.id, friend.id);
  Object.assign(people, { owner: owner.id, friend: friend.id, stranger: stranger.id });
  tokens.owner = await createToken(db.prisma, owner.id);
  tokens.friend = await createToken(db.prisma, friend.id);
  tokens.stranger = await createToken(db.prisma, stranger.id);
});

afterAll(async () => {
  await closeFitPool();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('gear chosen for workouts', () => {
  let shoes: Gear;
  let bike: Gear;

  it('a workout names its gear, or takes the default for its activity, or none when it says null', async () => {
    shoes = await createGear({ name: 'Pegasus 40', brand: 'Nike', kind: 'SHOES', defaultFor: ['RUNNING', 'WALKING'] });
    bike = await createGear({ name: 'Gravel bike', kind: 'BIKE', defaultFor: ['CYCLING'] });
    expect(shoes.defaultFor).toEqual(['RUNNING', 'WALKING']);
    const run = await postWorkout({ activityType: 'RUNNING', distance: { value: 10, units: 'KILOMETERS' }, duration: 3000 });
    expect(run.entry!.workout.gear).toEqual({ name: 'Pegasus 40' });
    const ride = await postWorkout({ activityType: 'CYCLING', distance: { value: 40, units: 'KILOMETERS' }, duration: 5400 });
    expect(ride.entry!.workout.gear).toEqual({ name: 'Gravel bike' });
    const named = await postWorkout({ activityType: 'WALKING', gearId: bike.id, distance: { value: 2, units: 'KILOMETERS' } });
    expect(named.entry!.workout.gear).toEqual({ name: 'Gravel bike' });
    const none = await postWorkout({ activityType: 'RUNNING', gearId: null, distance: { value: 5, units: 'KILOMETERS' } });
    expect(none.entry!.workout.gear).toBeNull();
    const swim = await postWorkout({ activityType: 'SWIMMING', duration: 1800 });
    expect(swim.entry!.workout.gear).toBeNull();
  });

  it('another athlete’s gear, or what names no gear, is refused naming workout.gearId', async () => {
    const theirs = await createGear({ name: 'Borrowed', kind: 'OTHER' }, tokens.stranger);
    for (const gearId of [theirs.id, '999999', 'bm90IGFuIGlk']) {
      const refused = await postWorkout({ activityType: 'RUNNING', gearId });
      expect(refused.entry).toBeNull();
      expect(refused.error).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'workout.gearId' }] });
    }
  });

  it('totals count each reader’s workouts: the owner all, a friend friends-only too, anyone else the public ones', async () => {
    await postWorkout({ activityType: 'RUNNING', distance: { value: 8, units: 'KILOMETERS' }, duration: 2400 }, 'FRIENDS');
    await postWorkout({ activityType: 'RUNNING', distance: { value: 3, units: 'KILOMETERS' }, duration: 900 }, 'ONLY_ME');
    const totals = async (token?: string) => (await gearOf('kestrel', token)).find((g) => g.name === 'Pegasus 40')?.totals;
    expect(await totals(tokens.owner)).toEqual({ workouts: 3, distance: { value: 21, units: 'KILOMETERS' }, movingSeconds: 6300 });
    expect(await totals(tokens.friend)).toEqual({ workouts: 2, distance: { value: 18, units: 'KILOMETERS' }, movingSeconds: 5400 });
    expect(await totals(tokens.stranger)).toEqual({ workouts: 1, distance: { value: 10, units: 'KILOMETERS' }, movingSeconds: 3000 });
    expect(await totals()).toEqual({ workouts: 1, distance: { value: 10, units: 'KILOMETERS' }, movingSeconds: 3000 });
    // the gear's own list of workouts keeps to the same rule
    const listed = await graphql<{ gear: { workouts: { edges: unknown[] } } }>(
      tokens.friend,
      'query ($id: ID!) { gear(id: $id) { workouts(first: 10) { edges { node { databaseId } } } } }',
      { id: shoes.id },
    );
    expect(listed.gear.workouts.edges).toHaveLength(2);
  });

  it('gear used only where a reader may not look is not there for them: not listed, not by id, not as a node', async () => {
    const secret = await createGear({ name: 'Secret racing flats', kind: 'SHOES' });
    const unused = await createGear({ name: 'Spare tyres', kind: 'OTHER' });
    await postWorkout({ activityType: 'RUNNING', gearId: secret.id, distance: { value: 5, units: 'KILOMETERS' } }, 'FRIENDS');
    const names = async (token?: string) => (await gearOf('kestrel', token)).map((g) => g.name);
    expect(await names(tokens.owner)).toEqual(['Pegasus 40', 'Gravel bike', 'Secret racing flats', 'Spare tyres']);
    expect(await names(tokens.friend)).toEqual(['Pegasus 40', 'Gravel bike', 'Secret racing flats']);
    expect(await names(tokens.stranger)).toEqual(['Pegasus 40', 'Gravel bike']);
    expect(await names()).toEqual(['Pegasus 40', 'Gravel bike']);
    for (const gear of [secret, unused]) {
      const data = await graphql<{ gear: unknown; node: unknown }>(
        tokens.stranger,
        'query ($id: ID!) { gear(id: $id) { name } node(id: $id) { id } }',
        { id: gear.id },
      );
      expect(data).toEqual({ gear: null, node: null });
    }
    // defaults are the owner's own settings
    expect((await gearOf('kestrel', tokens.friend)).every((g) => g.defaultFor === null)).toBe(true);
  });

  it('retiring gear ends its defaults; a default moves from one gear to another; the owner changes a workout’s gear', async () => {
    const update = (input: Record<string, unknown>) =>
      graphql<{ updateGear: { gear: Gear | null; error: { __typename: string } | null } }>(
        tokens.owner,
        `mutation ($input: UpdateGearInput!) { updateGear(input: $input) { gear { ${GEAR} } error { __typename } } }`,
        { input },
      ).then((data) => data.updateGear);
    const trail = await createGear({ name: 'Trail shoes', kind: 'SHOES', defaultFor: ['RUNNING'] });
    expect(trail.defaultFor).toEqual(['RUNNING']);
    const pegasus = (await gearOf('kestrel', tokens.owner)).find((g) => g.name === 'Pegasus 40')!;
    expect(pegasus.defaultFor).toEqual(['WALKING']);
    expect((await update({ id: trail.id, retired: true })).gear).toMatchObject({ retired: true, defaultFor: [] });
    const run = await postWorkout({ activityType: 'RUNNING', duration: 600 });
    expect(run.entry!.workout.gear).toBeNull();
    // the owner moves it to other gear afterwards; someone else cannot
    const moved = await graphql<{ updateEntry: { entry: { workout: { gear: { name: string } } } } }>(
      tokens.owner,
      'mutation ($id: ID!, $gear: ID) { updateEntry(input: { id: $id, workout: { gearId: $gear } }) { entry { workout { gear { name } } } } }',
      { id: run.entry!.databaseId, gear: pegasus.id },
    );
    expect(moved.updateEntry.entry.workout.gear).toEqual({ name: 'Pegasus 40' });
    // retired gear is the default of nothing; back in use, it may be again
    expect((await update({ id: trail.id, defaultFor: ['RUNNING'] })).error?.__typename).toBe('ValidationError');
    expect((await update({ id: trail.id, retired: false, defaultFor: ['RUNNING', 'WALKING'] })).gear?.defaultFor).toEqual([
      'RUNNING',
      'WALKING',
    ]);
    expect((await gearOf('kestrel', tokens.owner)).find((g) => g.name === 'Pegasus 40')!.defaultFor).toEqual([]);
    const others = await graphql<{ updateGear: { error: { __typename: string } } }>(
      tokens.stranger,
      'mutation ($id: ID!) { updateGear(input: { id: $id, name: "Mine now" }) { error { __typename } } }',
      { id: trail.id },
    );
    expect(others.updateGear.error.__typename).toBe('NotAuthorizedError');
    expect((await update({ id: trail.id, name: '  ' })).error?.__typename).toBe('ValidationError');
  });

  it('a post whose gear was deleted between its check and its write is refused naming the workout, never a 500', async () => {
    const racer = await createPerson(db.prisma, { username: 'swift' });
    const token = await createToken(db.prisma, racer.id);
    const made = await createGear({ name: 'Gone soon', kind: 'SHOES', defaultFor: ['ROWING'] }, token);
    // as if deleteGear committed after the post read the defaults: the row gone, the default not yet
    await db.prisma.gear.delete({ where: { id: made.databaseId } });
    const refused = await postWorkout({ activityType: 'ROWING', duration: 600 }, 'EVERYONE', token);
    expect(refused.entry).toBeNull();
    expect(refused.error).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'workout' }] });
    expect(await db.prisma.entry.count({ where: { authorId: racer.id } })).toBe(0);
    // an imported file whose default gear went the same way: refused naming gearId, not a 500
    const fit = fitFile({ points: pointsAlong(120, { speed: 3 }), sport: 'rowing' });
    const imported = await api.graphqlUpload<{ importActivity: { error: { __typename: string; issues: Array<{ path: string }> } | null } }>(
      'mutation ($file: ActivityFile!) { importActivity(input: { file: $file }) { error { __typename ... on ValidationError { issues { path } } } } }',
      new Blob([fit as BlobPart]),
      'row.fit',
      token,
    );
    expect(imported.errors).toBeUndefined();
    expect(imported.data!.importActivity.error).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'gearId' }] });
    expect(await db.prisma.entry.count({ where: { authorId: racer.id } })).toBe(0);
  });

  it('keeps at most 100 pieces a person: the 101st is refused, naming the field', async () => {
    const hoarder = await createPerson(db.prisma, { username: 'magpie' });
    const token = await createToken(db.prisma, hoarder.id);
    await db.prisma.gear.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({ ownerId: hoarder.id, name: `Shoe ${i}`, kind: 'shoes' })),
    });
    const refused = await graphql<{ createGear: { gear: null; error: { __typename: string; issues: Array<{ path: string }> } } }>(
      token,
      'mutation { createGear(input: { name: "One more", kind: SHOES }) { gear { id } error { __typename ... on ValidationError { issues { path } } } } }',
    );
    expect(refused.createGear).toEqual({ gear: null, error: { __typename: 'ValidationError', issues: [{ path: 'name' }] } });
    expect((await db.prisma.person.findUniqueOrThrow({ where: { id: hoarder.id } })).gearCount).toBe(100);
  });

  it('deleting gear keeps its workouts and their figures, without it, and ends its defaults', async () => {
    const old = await createGear({ name: 'Old bike', kind: 'BIKE' });
    const ride = await postWorkout({ activityType: 'CYCLING', gearId: old.id, distance: { value: 12, units: 'KILOMETERS' } });
    const deleted = await graphql<{ deleteGear: { deletedGearId: string } }>(
      tokens.owner,
      'mutation ($id: ID!) { deleteGear(input: { id: $id }) { deletedGearId } }',
      { id: old.id },
    );
    expect(deleted.deleteGear.deletedGearId).toBe(old.id);
    const entry = await graphql<{ entry: { workout: { gear: null; distance: { value: number } } } }>(
      tokens.owner,
      'query ($id: ID!) { entry(id: $id) { workout { gear { name } distance { value } } } }',
      { id: ride.entry!.databaseId },
    );
    expect(entry.entry.workout).toEqual({ gear: null, distance: { value: 12 } });
    // the count an athlete's page reads before it reads their gear follows every piece added and deleted
    const owner = await db.prisma.person.findUniqueOrThrow({ where: { id: people.owner }, select: { gearCount: true } });
    expect(owner.gearCount).toBe(await db.prisma.gear.count({ where: { ownerId: people.owner } }));
    expect(owner.gearCount).toBeGreaterThan(0);
  });
});

describe('gear through REST and imports', () => {
  it('REST posts `workout[gear_id]` and answers `gear_id`; another’s gear is a 422 naming the field', async () => {
    const [pegasus] = await gearOf('kestrel', tokens.owner);
    const posted = await api.fetch(`/entries.json?oauth_token=${tokens.owner}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `workout[activity_type]=running&workout[duration]=600&workout[gear_id]=${pegasus!.databaseId}`,
    });
    expect(posted.status).toBe(201);
    const body = (await posted.json()) as { workout: { gear_id: number } };
    expect(body.workout.gear_id).toBe(pegasus!.databaseId);
    const theirs = (await gearOf('curlew', tokens.stranger))[0]!;
    const refused = await api.fetch(`/entries.json?oauth_token=${tokens.owner}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `workout[activity_type]=running&workout[gear_id]=${theirs.databaseId}`,
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain('workout[gear_id]');
    // /api/v1: the gear by id with its totals, for whoever may see it; missing to anyone else
    const read = await api.fetch(`/api/v1/gear/${pegasus!.databaseId}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ name: 'Pegasus 40', defaultFor: null, totals: { workouts: expect.any(Number) } });
    const secret = (await gearOf('kestrel', tokens.owner)).find((g) => g.name === 'Secret racing flats')!;
    expect((await api.fetch(`/api/v1/gear/${secret.databaseId}`, { headers: { authorization: `Bearer ${tokens.stranger}` } })).status).toBe(
      404,
    );
    expect((await api.fetch(`/api/v1/gear/${secret.databaseId}`, { headers: { authorization: `Bearer ${tokens.friend}` } })).status).toBe(
      200,
    );
  });

  it('an imported file takes the default gear for its activity, or the gear named', async () => {
    const bike = (await gearOf('kestrel', tokens.owner)).find((g) => g.name === 'Gravel bike')!;
    const importFile = async (seconds: number, gearId?: string | null) => {
      const fit = fitFile({ points: pointsAlong(seconds, { speed: 7 }), sport: 'cycling' });
      const variables = gearId === undefined ? '' : `, gearId: ${gearId === null ? 'null' : JSON.stringify(gearId)}`;
      const result = await api.graphqlUpload<{ importActivity: { entry: { workout: { gear: { name: string } | null } } } }>(
        `mutation ($file: ActivityFile!) { importActivity(input: { file: $file${variables} }) { entry { workout { gear { name } } } } }`,
        new Blob([fit as BlobPart]),
        'ride.fit',
        tokens.owner,
      );
      expect(result.errors).toBeUndefined();
      return result.data!.importActivity.entry.workout.gear;
    };
    expect(await importFile(300)).toEqual({ name: 'Gravel bike' });
    expect(await importFile(301, null)).toBeNull();
    const pegasus = (await gearOf('kestrel', tokens.owner)).find((g) => g.name === 'Pegasus 40')!;
    expect(await importFile(302, pegasus.id)).toEqual({ name: 'Pegasus 40' });
    expect(bike.totals.workouts).toBeGreaterThan(0);
  });

  it('the export carries the gear and each workout’s, and the archive import makes them again for another account', async () => {
    const media = createMediaStore(path.join(dir, 'media'));
    const zip = await accountExport(db.prisma, media, people.owner);
    const chunks: Buffer[] = [];
    for await (const chunk of zip!.outputStream) chunks.push(chunk as Buffer);
    const file = path.join(dir, 'export.zip');
    writeFileSync(file, Buffer.concat(chunks));
    const heir = await createPerson(db.prisma, { username: 'heir', units: 'kilometers' });
    const heirToken = await createToken(db.prisma, heir.id);
    for (let round = 0; round < 2; round++) await importArchive({ database: db, media, personId: heir.id, zipPath: file });
    const mine = await gearOf('kestrel', tokens.owner);
    const theirs = await gearOf('heir', heirToken);
    // made once, however often the export is imported, with the same defaults and the same totals
    expect(theirs.map((g) => [g.name, g.retired, g.defaultFor, g.totals])).toEqual(
      mine.map((g) => [g.name, g.retired, g.defaultFor, g.totals]),
    );
  });
});

describe('gear of a Strava export', () => {
  it('each "Activity Gear" becomes one piece of gear, of the kind its first activity suggests; a row without one has none', async () => {
    const header =
      'Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,Filename';
    const rows = [
      '1,"Mar 1, 2024, 7:00:00 AM",Ride one,Ride,,3600,30.5,,,false,,Trek Domane,',
      '2,"Mar 2, 2024, 7:00:00 AM",Ride two,Ride,,3600,20,,,false,,Trek Domane,',
      '3,"Mar 3, 2024, 7:00:00 AM",Run,Run,,1800,5,,,false,,Kinvara 14,',
      '4,"Mar 4, 2024, 7:00:00 AM",Yoga,Yoga,,3600,0,,,false,,,',
    ];
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(`${[header, ...rows].join('\n')}\n`), 'activities.csv');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const file = path.join(dir, 'strava.zip');
    writeFileSync(file, Buffer.concat(chunks));
    const athlete = await createPerson(db.prisma, { username: 'stravian', units: 'kilometers' });
    const token = await createToken(db.prisma, athlete.id);
    const media = createMediaStore(path.join(dir, 'media'));
    // a default for running is not given to imported history: the row says what it was done in
    await graphql(token, 'mutation { createGear(input: { name: "Spare", kind: SHOES, defaultFor: [FITNESS, YOGA] }) { gear { id } } }');
    for (let round = 0; round < 2; round++) await importArchive({ database: db, media, personId: athlete.id, zipPath: file });
    const gear = await gearOf('stravian', token);
    expect(gear.map((g) => [g.name, g.totals.workouts, g.totals.distance.value])).toEqual([
      ['Spare', 0, 0],
      ['Trek Domane', 2, 50.5],
      ['Kinvara 14', 1, 5],
    ]);
    const kinds = await db.prisma.gear.findMany({ where: { ownerId: athlete.id }, orderBy: { id: 'asc' }, select: { kind: true } });
    expect(kinds.map((k) => k.kind)).toEqual(['shoes', 'bike', 'shoes']);
  });
});

describe('gear on the pages', () => {
  const PASSWORD = 'gear pages password';
  let browser: TestBrowser;
  let visitor: TestBrowser;

  beforeAll(async () => {
    await createAccount(db.prisma, { username: 'sanderling', password: PASSWORD, displayName: 'Sanderling' });
    browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('sanderling', PASSWORD)).status).toBe(302);
    visitor = new TestBrowser(api.fetch);
  });

  it('added from the settings, chosen by default when posting, shown on the entry, its page and the athlete’s', async () => {
    const added = await browser.post('/settings/gear', { name: 'Cloudmonster', brand: 'On', kind: 'SHOES', default_running: 'yes' });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe('/settings?saved=gear#gear');
    const settings = await (await browser.get('/settings')).text();
    expect(settings).toContain('Cloudmonster');
    expect(settings).toContain('default for running');
    const gearId = Number(/href="\/gear\/(\d+)"/.exec(settings)![1]);
    // the compose form offers it, and a run posted without a choice is done in it
    expect(await (await browser.get('/')).text()).toMatch(/<select id="compose-gear" name="gear">.*Cloudmonster/s);
    const posted = await browser.post('/compose', {
      kind: 'workout',
      activity: 'running',
      distance: '12',
      distance_units: 'kilometers',
      duration: '1:00:00',
      gear: '',
      visibility: 'EVERYONE',
    });
    expect(posted.status).toBe(303);
    const entryPath = posted.headers.get('location')!;
    const entry = await (await visitor.get(entryPath)).text();
    expect(entry).toContain(`Done in <a href="/gear/${gearId}">Cloudmonster</a>`);
    const page = await visitor.get(`/gear/${gearId}`);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('12 km in 1 workout');
    expect(body).toContain(entryPath);
    // only its owner may change it
    expect(body).not.toContain('Change it');
    expect(await (await visitor.get('/people/sanderling')).text()).toContain(`<a href="/gear/${gearId}">Cloudmonster</a>`);
  });

  it('its owner renames and retires it on its page, changes a workout’s gear, and deletes it', async () => {
    const settings = await (await browser.get('/settings')).text();
    const gearId = Number(/href="\/gear\/(\d+)"/.exec(settings)![1]);
    const own = await (await browser.get(`/gear/${gearId}`)).text();
    expect(own).toContain('Change it');
    const refused = await browser.post(`/gear/${gearId}`, { name: '', kind: 'SHOES' });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toMatch(/name/);
    const saved = await browser.post(`/gear/${gearId}`, {
      name: 'Old Cloudmonster',
      kind: 'SHOES',
      default_running: 'yes',
      retired: 'yes',
    });
    expect(saved.headers.get('location')).toBe(`/gear/${gearId}?saved`);
    const after = await (await browser.get(`/gear/${gearId}?saved`)).text();
    expect(after).toContain('Your gear is saved.');
    expect(after).toContain('retired');
    // a run posted now has no gear; its owner picks the retired shoes for it afterwards
    const posted = await browser.post('/compose', {
      kind: 'workout',
      activity: 'running',
      duration: '30:00',
      gear: '',
      visibility: 'EVERYONE',
    });
    const entryPath = posted.headers.get('location')!;
    expect(await (await browser.get(entryPath)).text()).not.toContain('Done in');
    const entryId = entryPath.split('/').pop();
    const edited = await browser.post(`/entries/${entryId}/edit`, { message: '', workout_title: 'Easy', gear: String(gearId) });
    expect(edited.status).toBe(303);
    expect(await (await browser.get(entryPath)).text()).toContain('Done in <a href');
    expect((await browser.post(`/gear/${gearId}/delete`, {})).status).toBe(422);
    const deleted = await browser.post(`/gear/${gearId}/delete`, { confirm: 'yes' });
    expect(deleted.headers.get('location')).toBe('/settings?saved=gear#gear');
    expect((await visitor.get(`/gear/${gearId}`)).status).toBe(404);
    expect(await (await browser.get(entryPath)).text()).not.toContain('Done in');
  });
});
