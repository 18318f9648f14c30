// The GraphQL operations behind the people-facing pages: like the REST layer, the pages read through
// the schema, never the database.
const PERSON = 'fragment PagePerson on Person { username displayName photoUrl url }';
const ENTRY = `fragment PageEntry on Entry {
  id url at message commentCount likeCount
  location { name }
  author { ...PagePerson }
  workout { activityType distance { value units } duration felt title }
}`;
const POINTS = 'outline(max: 600) { lat lon elevation segment }';
const STREAM = `__typename ... on EntryConnection { edges { node { ...PageEntry } } pageInfo { hasNextPage } } ... on Error { message }`;

export const PAGE_OPERATIONS = {
  feed: `query ($page: Int) { stream: publicStream(page: $page) { ${STREAM} } } ${ENTRY} ${PERSON}`,
  entry: `query ($id: Int!) { entry(id: $id) {
    ...PageEntry
    comments { id body createdAt author { ...PagePerson } }
    likes { createdAt person { ...PagePerson } }
    track { pointCount distanceMeters elevationGain ${POINTS} }
  } } ${ENTRY} ${PERSON}`,
  person: `query ($username: String!, $page: Int) {
    person(username: $username) {
      ...PagePerson location goal
      friends(first: 50) { edges { node { ...PagePerson } } }
      routes { id name activityType distance { value units } }
    }
    stream: personStream(username: $username, page: $page) { ${STREAM} }
  } ${ENTRY} ${PERSON}`,
  route: `query ($id: Int!) { route(id: $id) {
    id name activityType distance { value units }
    owner { ...PagePerson }
    track { pointCount distanceMeters elevationGain ${POINTS} }
  } } ${PERSON}`,
} as const;

export type PageOperation = keyof typeof PAGE_OPERATIONS;
