// The REST view of the schema: what the generated REST API (/api/v1) builds its operations and OpenAPI
// document from. sofa-api selects every field it can reach, and through Person (friends, routes, their
// entries) that is the whole graph: a stream page would carry every author's routes and tracks. The
// view is the schema with two cuts, so that each operation answers one resource:
// - a person inside another resource (an entry's author, a comment's, a friend) is a PersonSummary:
//   the person's own fields, without their collections, which have operations of their own;
// - a few fields are left out where they would make an answer huge; each says where the data is.
// The view only shapes documents: they run against the real schema, which checks and coerces every
// value (the view's scalars pass REST parameters through as sent).
import {
  buildASTSchema,
  type DefinitionNode,
  GraphQLScalarType,
  type GraphQLSchema,
  getNamedType,
  isLeafType,
  Kind,
  parse,
  printSchema,
  type TypeNode,
  visit,
} from 'graphql';
import { decimalParam } from './params.ts';

/** Types summarized where another type holds them: name → the summary's name. */
const SUMMARIES: Record<string, string> = { Person: 'PersonSummary' };

/**
 * Fields a summary leaves out though they are leaves: they answer only to their own person (null for the
 * rest), or cost a read for each person (where the viewer stands with them: asked of one person's path).
 */
const OWN_ONLY = new Set([
  'Person.defaultVisibility',
  'Person.hiddenEndsMeters',
  'Person.statsVisibility',
  'Person.weekStart',
  'Person.maxHeartRate',
  'Person.restingHeartRate',
  'Person.thresholdPower',
  'Person.viewerFriendship',
  'Person.blockedByViewer',
  'Person.mutedByViewer',
  'Person.fediverseHandle',
  'Person.fediverseOptOut',
  'Person.fediverseAutoAccept',
]);

/** Fields the view leaves out, and where the data is instead (the OpenAPI document says so). */
export const LEFT_OUT: Record<string, string> = {
  // any of several types: REST has a path for each kind of object, by its number
  'Query.node': 'an object by its global id is GraphQL’s `node(id:)`; each kind has its own path here',
  'Query.nodes': 'objects by their global ids are GraphQL’s `nodes(ids:)`; each kind has its own path here',
  'Person.entries': 'a person’s entries are `GET /api/v1/people/{username}/entries`',
  'Query.rateLimit': 'every answer carries the budget in its `X-RateLimit-Limit`, `-Remaining` and `-Reset` headers',
  // aggregates over every workout of the person, with arguments a REST path cannot give a nested field
  'Person.stats': 'a person’s training totals are GraphQL’s `Person.stats(period:)`',
  'Person.records': 'a person’s records are GraphQL’s `Person.records`',
  'Person.streak': 'a person’s streak is GraphQL’s `Person.streak`',
  'Track.points': 'a track’s points are its GPX: `/entries/{id}.gpx` or `/routes/{id}.gpx`',
  'Track.outline': 'a track’s points are its GPX: `/entries/{id}.gpx` or `/routes/{id}.gpx`',
  'Track.gpx': 'a track’s GPX is `/entries/{id}.gpx` or `/routes/{id}.gpx`',
  'Track.waypoints': 'a track’s waypoints are in its GPX',
  // they read the track's points, for every track of a page
  'Track.streams': 'a track’s points as arrays for charts are GraphQL’s `Track.streams(resolution:)`, its points the GPX',
  // it reads every track's points: its owner asks GraphQL's Track.privacy for one track at a time
  'Track.privacy': 'what a privacy zone hides of a track is GraphQL’s `Track.privacy`',
  // a page of 20 entries would read every route, its owner and its track: 12 statements, not 3
  'Workout.route': 'a workout’s route is `GET /api/v1/routes/{routeId}`',
  'Workout.gear': 'a workout’s gear is `GET /api/v1/gear/{gearId}`',
  // a page of entries would read each one's remote likes and replies: a statement more for every page
  'Entry.fediverseReactions': 'an entry’s likes and replies from the fediverse are GraphQL’s `Entry.fediverseReactions`',
  // a page of entries inside each piece of gear of a person's list
  'Gear.workouts': 'the workouts done in a piece of gear are GraphQL’s `Gear.workouts`; `GET /api/v1/gear/{id}` gives its totals',
  // a write's edge is for a GraphQL client's cache (its cursor pages a connection); the object is beside it
  ...Object.fromEntries(
    [
      'CreateEntryPayload.entryEdge',
      'ImportActivityPayload.entryEdge',
      'CreateCommentPayload.commentEdge',
      'LikeEntryPayload.likeEdge',
      'CreateRoutePayload.routeEdge',
      'RequestFriendPayload.friendEdge',
      'AcceptFriendPayload.friendEdge',
    ].map((field) => [field, 'a write’s new edge (for a GraphQL client’s connection) is GraphQL’s; the object it holds is in the answer']),
  ),
};

const ROOTS = new Set(['Query', 'Mutation']);

export function restViewSchema(schema: GraphQLSchema): GraphQLSchema {
  const document = parse(printSchema(schema));
  const summaries: DefinitionNode[] = Object.entries(SUMMARIES).map(([name, summary]) => {
    const type = schema.getType(name);
    if (!type || !('getFields' in type)) throw new Error(`the REST view summarizes ${name}, which the schema lacks`);
    const leaves = Object.values(type.getFields())
      .filter((field) => isLeafType(getNamedType(field.type)) && !OWN_ONLY.has(`${name}.${field.name}`))
      .map((field) => field.name);
    const definition = document.definitions.find((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === name);
    if (!definition || definition.kind !== Kind.OBJECT_TYPE_DEFINITION) throw new Error(`${name} is not an object type`);
    return {
      ...definition,
      name: { kind: Kind.NAME, value: summary },
      description: {
        kind: Kind.STRING,
        value: `${definition.description?.value ?? name}: its own fields (the whole of it at its own path).`,
      },
      interfaces: [],
      fields: definition.fields?.filter((field) => leaves.includes(field.name.value)),
    };
  });
  const summarized = (type: TypeNode): TypeNode =>
    visit(type, {
      NamedType(named) {
        const summary = SUMMARIES[named.name.value];
        return summary ? { ...named, name: { ...named.name, value: summary } } : undefined;
      },
    });
  let owner = '';
  const enter = (node: { name: { value: string } }) => {
    owner = node.name.value;
    // subscriptions have SSE and WebSockets; a REST operation cannot hold a stream
    return owner === 'Subscription' ? null : undefined;
  };
  const cut = visit(document, {
    ObjectTypeDefinition: { enter },
    InterfaceTypeDefinition: { enter },
    FieldDefinition(node) {
      if (`${owner}.${node.name.value}` in LEFT_OUT) return null;
      return ROOTS.has(owner) ? undefined : { ...node, type: summarized(node.type) };
    },
  });
  const view = buildASTSchema({ ...cut, definitions: [...cut.definitions, ...summaries] }, { assumeValidSDL: false });
  // sofa reads a query parameter through the view's scalar (`serialize`): a UNIX time arrives as the
  // number its text writes (`since=1795102588.0`), as Int's and Float's do; anything else as sent,
  // for the real scalar to refuse by name
  const unixTime = view.getType('UnixTime');
  if (unixTime instanceof GraphQLScalarType) {
    unixTime.serialize = (value: unknown) => (typeof value === 'string' ? (decimalParam(value) ?? value) : value);
  }
  return view;
}
