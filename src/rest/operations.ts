// The GraphQL operations behind the legacy paths: the REST layer runs these against the same schema
// as every GraphQL client, so validation and authorization have one path.
const PERSON = 'fragment RestPerson on Person { username displayName photoUrl url }';
const ENTRY = `fragment RestEntry on Entry {
  id url at message
  comments { body createdAt author { ...RestPerson } }
  likes { createdAt person { ...RestPerson } }
  location { name } geo { latitude longitude }
  author { ...RestPerson }
  workout { activityType distance { value units } duration felt title calories routeId }
  media { content { type url } preview { type url } }
}
${PERSON}`;
const ROUTE =
  'fragment RestRoute on Route { id name activityType distance { value units } start { latitude longitude } track { polyline } }';
const TRACK = 'fragment RestTrack on Track { pointCount distanceMeters elevationGain startedAt endedAt polyline }';
const FAILURE = `... on Error { __typename code errorMessage: message } ... on ValidationError { issues { path message } }`;
const FAILED = `... on Error { __typename code errorMessage: message }`;
const PAGE = '$page: Int, $since: UnixTime, $until: UnixTime';
const PAGE_ARGS = 'page: $page, since: $since, until: $until';
const STREAM = `__typename ... on EntryConnection { edges { node { ...RestEntry } } } ${FAILURE}`;

export const OPERATIONS = {
  publicStream: `query (${PAGE}) { stream: publicStream(${PAGE_ARGS}) { ${STREAM} } } ${ENTRY}`,
  friendsStream: `query (${PAGE}) { stream: friendsStream(${PAGE_ARGS}) { ${STREAM} } } ${ENTRY}`,
  personStream: `query ($username: String!, ${PAGE}) { stream: personStream(username: $username, ${PAGE_ARGS}) { ${STREAM} } } ${ENTRY}`,
  nearbyStream: `query ($lat: Float!, $lon: Float!, $radius: Float, ${PAGE}) { stream: nearbyStream(lat: $lat, lon: $lon, radius: $radius, ${PAGE_ARGS}) { ${STREAM} } } ${ENTRY}`,
  entry: `query ($id: Int!) { entry(id: $id) { ...RestEntry } } ${ENTRY}`,
  person: `query ($username: String!) { person(username: $username) { username displayName photoUrl url location timeZone goal } }`,
  me: `query { me { username displayName photoUrl url location timeZone goal } }`,
  friends: `query ($username: String!) { person(username: $username) { friends(first: 50) { edges { node { ...RestPerson location } } } } } ${PERSON}`,
  routes: `query ($username: String!) { person(username: $username) { routes { ...RestRoute } } } ${ROUTE}`,
  route: `query ($id: Int!) { route(id: $id) { ...RestRoute } } ${ROUTE}`,
  routeGpx: `query ($id: Int!) { route(id: $id) { name track { gpx } } }`,
  createEntry: `mutation ($input: CreateEntryInput!) { result: createEntry(input: $input) { __typename ...RestEntry ${FAILURE} } } ${ENTRY}`,
  deleteEntry: `mutation ($id: Int!) { result: deleteEntry(id: $id) { __typename ... on DeletedEntry { id } ${FAILED} } }`,
  createComment: `mutation ($entryId: Int!, $body: String!) { result: createComment(entryId: $entryId, body: $body) { __typename ... on Comment { id body createdAt author { ...RestPerson } } ${FAILURE} } } ${PERSON}`,
  likeEntry: `mutation ($entryId: Int!) { result: likeEntry(entryId: $entryId) { __typename ... on Like { createdAt person { ...RestPerson } } ${FAILED} } } ${PERSON}`,
  createRoute: `mutation ($name: String, $activityType: ActivityType) { result: createRoute(name: $name, activityType: $activityType) { __typename ...RestRoute ${FAILURE} } } ${ROUTE}`,
  setEntryTrack: `mutation ($id: Int!, $gpx: GpxDocument!) { result: setEntryTrack(entryId: $id, gpx: $gpx) { __typename ... on Entry { id track { ...RestTrack } } ${FAILURE} } } ${TRACK}`,
  setRouteTrack: `mutation ($id: Int!, $gpx: GpxDocument!) { result: setRouteTrack(routeId: $id, gpx: $gpx) { __typename ... on Route { id track { ...RestTrack } } ${FAILURE} } } ${TRACK}`,
} as const;

export type OperationName = keyof typeof OPERATIONS;
