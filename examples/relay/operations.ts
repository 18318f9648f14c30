// Relay operations against Milepost's schema, as a frontend team starts from them: compiled by
// relay-compiler (`npx relay-compiler examples/relay/relay.config.json`) into __generated__/, and run by
// relay-runtime in test/db/relay-client.test.ts.
import { graphql } from 'relay-runtime';

/** A person's page: who they are, and their friends a page at a time (a connection Relay pages itself). */
export const PersonPage = graphql`
  query operationsPersonQuery($username: String!) {
    person(username: $username) {
      id
      displayName
      ...operations_friends
    }
  }
`;

/** Friends, paged by Relay through `node(id:)` and the connection's cursors. */
export const Friends = graphql`
  fragment operations_friends on Person
  @refetchable(queryName: "operationsFriendsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    friends(first: $count, after: $cursor) @connection(key: "operations_friends") {
      edges {
        node {
          id
          username
        }
      }
    }
  }
`;

/** An entry, refetchable on its own through `node(id:)`. */
export const EntryCard = graphql`
  fragment operations_entry on Entry @refetchable(queryName: "operationsEntryRefetchQuery") {
    id
    message
    likeCount
  }
`;

/** One entry by id, with the refetchable card. */
export const EntryPage = graphql`
  query operationsEntryQuery($id: ID!) {
    entry(id: $id) {
      ...operations_entry
    }
  }
`;

/** New comments on an entry, live. */
export const Comments = graphql`
  subscription operationsCommentsSubscription($entryId: ID!) {
    entryComments(entryId: $entryId) {
      id
      body
    }
  }
`;
