// People, their friends and routes: each route with its OpenAPI operation.
import {
  RestFriendsDocument,
  RestMeDocument,
  RestPersonDocument,
  RestRemoveFriendDocument,
  RestRequestFriendDocument,
  RestRoutesDocument,
} from '../operations/generated.ts';
import { RestError } from './errors.ts';
import { dataOf, outcome, ownerName, type RestKit, username } from './kit.ts';
import { CREATE_ERRORS, formatParams, IDEMPOTENCY_KEY, json, needs, OPTIONAL_TOKEN, pick, ref, USERNAME } from './openapi-parts.ts';
import { friendJson, friendshipJson, personJson, routeJson } from './shapes.ts';

/** People, their friends and routes. */
export function mountPeopleRoutes(kit: RestKit): void {
  meRoute(kit);
  personRoute(kit);
  friendsRoute(kit);
  requestFriendRoute(kit);
  removeFriendRoute(kit);
  personRoutesRoute(kit);
}

/** GET /people/me: The person who authorized the token. */
function meRoute({ route, run }: RestKit): void {
  route(
    'GET',
    '/people/me',
    {
      auth: true,
      doc: {
        operationId: 'legacyMe',
        summary: 'The person who authorized the token.',
        security: needs('read'),
        parameters: formatParams,
        responses: { '200': { description: 'The person.', content: json(ref('Person')) }, ...pick('400', '401', '405', '406') },
      },
    },
    async ({ ctx, context }) => {
      const data = dataOf(await run(RestMeDocument, ctx.request, context));
      return { status: 200, body: personJson(data.me!) };
    },
  );
}

/** GET /people/:username: A person. */
function personRoute({ route, run }: RestKit): void {
  route(
    'GET',
    '/people/:username',
    {
      doc: {
        operationId: 'legacyPerson',
        security: OPTIONAL_TOKEN,
        summary: 'A person.',
        parameters: [USERNAME, ...formatParams],
        responses: { '200': { description: 'The person.', content: json(ref('Person')) }, ...pick('304', '400', '404', '405', '406') },
      },
    },
    async ({ ctx, context }) => {
      const data = dataOf(await run(RestPersonDocument, ctx.request, context, { username: username(ctx) }));
      if (!data.person) throw new RestError(404, 'NOT_FOUND', `nobody is called ${username(ctx)}`);
      return { status: 200, body: personJson(data.person) };
    },
  );
}

/** GET /people/:username/friends: A person’s friends: the 50 longest-standing (GraphQL `Person.friends` pages through all of them). */
function friendsRoute({ route, run }: RestKit): void {
  route(
    'GET',
    '/people/:username/friends',
    {
      doc: {
        operationId: 'legacyFriends',
        security: OPTIONAL_TOKEN,
        summary: 'A person’s friends: the 50 longest-standing (GraphQL `Person.friends` pages through all of them).',
        description: '`me` stands for the person who authorized the token, and needs one (401 without).',
        parameters: [USERNAME, ...formatParams],
        responses: {
          '200': {
            description: 'The friends.',
            content: json({ type: 'object', required: ['friends'], properties: { friends: { type: 'array', items: ref('Friend') } } }),
          },
          ...pick('304', '400', '401', '404', '405', '406'),
        },
      },
    },
    async ({ ctx, context }) => {
      const name = ownerName(ctx, context);
      const data = dataOf(await run(RestFriendsDocument, ctx.request, context, { username: name }));
      if (!data.person) throw new RestError(404, 'NOT_FOUND', `nobody is called ${name}`);
      return { status: 200, body: { friends: data.person.friends.edges.map((edge) => friendJson(edge.node)) } };
    },
  );
}

/** POST /people/:username/friends: Ask a person to be friends; when they already asked you, you become friends at once. */
function requestFriendRoute({ route, run }: RestKit): void {
  // friend requests: asking someone who already asked you makes you friends at once
  route(
    'POST',
    '/people/:username/friends',
    {
      auth: true,
      body: true,
      doc: {
        operationId: 'legacyRequestFriend',
        summary: 'Ask a person to be friends; when they already asked you, you become friends at once.',
        description: 'Asking again is not an error. `me` or your own username is a 422 naming `username`.',
        security: needs('profile:write'),
        parameters: [USERNAME, IDEMPOTENCY_KEY],
        responses: {
          '201': {
            description: 'Where you stand with the person now.',
            headers: { Location: { description: 'The person’s URL.', schema: { type: 'string' } } },
            content: json(ref('Friendship')),
          },
          ...pick(...CREATE_ERRORS, '404'),
        },
      },
    },
    async ({ ctx, context }) => {
      const result = await run(RestRequestFriendDocument, ctx.request, context, { username: ownerName(ctx, context) });
      const state = outcome(result, 'friendship');
      return { status: 201, body: friendshipJson(state), headers: { location: state.person.url } };
    },
  );
}

/** DELETE /people/:username/friends: End a friendship, or withdraw your own request. Not being friends is not an error. */
function removeFriendRoute({ route, run }: RestKit): void {
  route(
    'DELETE',
    '/people/:username/friends',
    {
      auth: true,
      body: true,
      doc: {
        operationId: 'legacyRemoveFriend',
        summary: 'End a friendship, or withdraw your own request. Not being friends is not an error.',
        security: needs('profile:write'),
        parameters: [USERNAME],
        responses: {
          '200': { description: 'Where you stand with the person now (`none`).', content: json(ref('Friendship')) },
          ...pick(...CREATE_ERRORS, '404'),
        },
      },
    },
    async ({ ctx, context }) => {
      const result = await run(RestRemoveFriendDocument, ctx.request, context, { username: ownerName(ctx, context) });
      return { status: 200, body: friendshipJson(outcome(result, 'friendship')) };
    },
  );
}

/** GET /people/:username/routes: A person’s routes. */
function personRoutesRoute({ route, run }: RestKit): void {
  route(
    'GET',
    '/people/:username/routes',
    {
      doc: {
        operationId: 'legacyPersonRoutes',
        security: OPTIONAL_TOKEN,
        summary: 'A person’s routes.',
        description: '`me` stands for the person who authorized the token, and needs one (401 without).',
        parameters: [USERNAME, ...formatParams],
        responses: {
          '200': {
            description: 'The routes.',
            content: json({ type: 'object', required: ['routes'], properties: { routes: { type: 'array', items: ref('Route') } } }),
          },
          ...pick('304', '400', '401', '404', '405', '406'),
        },
      },
    },
    async ({ ctx, context }) => {
      const name = ownerName(ctx, context);
      const data = dataOf(await run(RestRoutesDocument, ctx.request, context, { username: name }));
      if (!data.person) throw new RestError(404, 'NOT_FOUND', `nobody is called ${name}`);
      return { status: 200, body: { routes: data.person.routes.edges.map((edge) => routeJson(edge.node)) } };
    },
  );
}
