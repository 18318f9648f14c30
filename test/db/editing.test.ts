// Correcting what was posted: a workout's figures after the fact, and a route renamed or deleted,
// through the same GraphQL mutations every client uses (and /api/v1, generated from them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let owner = '';
let other = '';

beforeAll(async () => {
  db = await createTestDatabase('editing');
  api = testApp(db);
  owner = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'editor', units: 'kilometers' })).id);
  other = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'bystander' })).id);
});
afterAll(() => db.destroy());

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions say what they hold
async function gql(token: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const result = await api.graphql(query, variables, token);
  expect(result.errors).toBeUndefined();
  return result.data;
}

const WORKOUT = 'workout { activityType distance { value units } duration calories felt completedAt route { name } }';
const ERROR = 'error { __typename ... on ValidationError { issues { path message } } ... on NotAuthorizedError { message } }';
const DELETE_ERROR = 'error { __typename ... on NotAuthorizedError { message } }';

describe('a workout corrected after posting', () => {
  it('changes the activity, distance, duration and the rest; null clears; what is left out stays', async () => {
    const route = (await gql(owner, 'mutation { createRoute(input: { name: "River" }) { route { id } } }')).createRoute.route.id;
    const created = await gql(
      owner,
      'mutation { createEntry(input: { message: "Long run", workout: { activityType: RUNNING, distance: { value: 10, units: KILOMETERS }, duration: 3000, calories: 700, felt: GOOD } }) { entry { id } } }',
    );
    const id = created.createEntry.entry.id;
    const updated = await gql(
      owner,
      `mutation ($id: ID!, $route: ID!) { updateEntry(input: { id: $id, workout: { activityType: WALKING, distance: { value: 12.5 }, duration: 5400, calories: null, completedAt: "2026-11-27T08:00:00Z", routeId: $route } }) { entry { message ${WORKOUT} } ${ERROR} } }`,
      { id, route },
    );
    expect(updated.updateEntry.error).toBeNull();
    expect(updated.updateEntry.entry).toEqual({
      message: 'Long run',
      workout: {
        activityType: 'WALKING',
        // the units stored before
        distance: { value: 12.5, units: 'KILOMETERS' },
        duration: 5400,
        calories: null,
        felt: 'GOOD',
        completedAt: '2026-11-27T08:00:00Z',
        route: { name: 'River' },
      },
    });
    // the stats read the corrected figures
    const stats = await gql(
      owner,
      '{ person(username: "editor") { stats(period: YEAR, from: "2026-01-01T00:00:00Z") { ... on TrainingStats { total { meters movingSeconds } } } } }',
    );
    expect(stats.person.stats.total).toEqual({ meters: 12_500, movingSeconds: 5400 });
    // the distance cleared
    const cleared = await gql(
      owner,
      `mutation ($id: ID!) { updateEntry(input: { id: $id, workout: { distance: null } }) { entry { ${WORKOUT} } } }`,
      { id },
    );
    expect(cleared.updateEntry.entry.workout.distance).toBeNull();
  });

  it('refuses what a workout cannot hold, naming the field, and changes nothing', async () => {
    const id = (await gql(owner, 'mutation { createEntry(input: { workout: { activityType: CYCLING, duration: 60 } }) { entry { id } } }'))
      .createEntry.entry.id;
    const theirs = (await gql(other, 'mutation { createRoute(input: { name: "Not yours" }) { route { id } } }')).createRoute.route.id;
    const refused = await gql(
      owner,
      `mutation ($id: ID!, $route: ID!) { updateEntry(input: { id: $id, workout: { activityType: null, duration: -5, distance: { value: -1, units: MILES } } }) { ${ERROR} }
        other: updateEntry(input: { id: $id, workout: { routeId: $route } }) { ${ERROR} } }`,
      { id, route: theirs },
    );
    expect(refused.updateEntry.error.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'workout.activityType',
      'workout.distance.value',
      'workout.duration',
    ]);
    expect(refused.other.error.issues).toEqual([{ path: 'workout.routeId', message: 'is not one of your routes' }]);
    const note = (await gql(owner, 'mutation { createEntry(input: { message: "just a note" }) { entry { id } } }')).createEntry.entry.id;
    const onNote = await gql(owner, `mutation ($id: ID!) { updateEntry(input: { id: $id, workout: { duration: 60 } }) { ${ERROR} } }`, {
      id: note,
    });
    expect(onNote.updateEntry.error.issues).toEqual([{ path: 'workout', message: 'can only be given for a workout' }]);
    const after = await gql(owner, `query ($id: ID!) { entry(id: $id) { ${WORKOUT} } }`, { id });
    expect(after.entry.workout).toMatchObject({ activityType: 'CYCLING', duration: 60 });
  });
});

describe('routes renamed and deleted', () => {
  it('updateRoute renames; deleteRoute removes it and answers its id; workouts keep their figures', async () => {
    const route = (await gql(owner, 'mutation { createRoute(input: { name: "Hill", activityType: RUNNING }) { route { id } } }'))
      .createRoute.route.id;
    const renamed = await gql(
      owner,
      `mutation ($id: ID!) { updateRoute(input: { id: $id, name: "  Big hill  " }) { route { id name activityType } ${ERROR} } }`,
      { id: route },
    );
    expect(renamed.updateRoute).toEqual({ route: { id: route, name: 'Big hill', activityType: 'RUNNING' }, error: null });
    const followed = (
      await gql(
        owner,
        `mutation ($route: ID!) { createEntry(input: { workout: { activityType: RUNNING, duration: 600, routeId: $route } }) { entry { id } } }`,
        {
          route,
        },
      )
    ).createEntry.entry.id;
    // nobody else may change or delete it
    const theirs = await gql(other, `mutation ($id: ID!) { deleteRoute(input: { id: $id }) { deletedRouteId ${DELETE_ERROR} } }`, {
      id: route,
    });
    expect(theirs.deleteRoute).toMatchObject({ deletedRouteId: null, error: { __typename: 'NotAuthorizedError' } });
    const deleted = await gql(owner, `mutation ($id: ID!) { deleteRoute(input: { id: $id }) { deletedRouteId ${DELETE_ERROR} } }`, {
      id: route,
    });
    expect(deleted.deleteRoute).toEqual({ deletedRouteId: route, error: null });
    expect((await gql(owner, 'query ($id: ID!) { route(id: $id) { id } }', { id: route })).route).toBeNull();
    const workout = (await gql(owner, `query ($id: ID!) { entry(id: $id) { ${WORKOUT} } }`, { id: followed })).entry.workout;
    expect(workout).toMatchObject({ duration: 600, route: null });
    const again = await gql(owner, `mutation ($id: ID!) { deleteRoute(input: { id: $id }) { ${DELETE_ERROR} } }`, { id: route });
    expect(again.deleteRoute.error.__typename).toBe('NotFoundError');
  });

  it('is POST /api/v1/update-route and /api/v1/delete-route too', async () => {
    const route = (await gql(owner, 'mutation { createRoute(input: { name: "Loop" }) { route { id } } }')).createRoute.route.id;
    const post = (path: string, body: unknown) =>
      api.fetch(`/api/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner}` },
        body: JSON.stringify(body),
      });
    const renamed = await post('/update-route', { id: route, name: 'Lake loop' });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { route: { name: string } }).route.name).toBe('Lake loop');
    const deleted = await post('/delete-route', { id: route });
    expect(await deleted.json()).toMatchObject({ deletedRouteId: route });
  });
});
