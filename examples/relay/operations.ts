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

/** The same entry, its card deferred and its comments streamed, as Relay asks with @defer and @stream. */
export const DeferredEntryPage = graphql`
  query operationsDeferredEntryQuery($id: ID!) {
    entry(id: $id) {
      id
      ...operations_entry @defer(label: "card")
      comments(first: 5) {
        edges @stream(initialCount: 1, label: "comments") {
          node {
            id
          }
        }
      }
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

/**
 * The public stream as a feed: the stream is the connection (no result union), so Relay pages it
 * with @connection, and each entry's comments too (FeedComments).
 */
export const Feed = graphql`
  fragment operations_feed on Query
  @refetchable(queryName: "operationsFeedPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    publicStream(first: $count, after: $cursor) @connection(key: "operations_feed_publicStream") {
      edges {
        node {
          id
          message
          author {
            id
            displayName
          }
          ...operations_feedComments
        }
      }
    }
  }
`;

/** An entry's comments in the feed, two at a time, paged on their own through `node(id:)`. */
export const FeedComments = graphql`
  fragment operations_feedComments on Entry
  @refetchable(queryName: "operationsFeedCommentsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    comments(first: $count, after: $cursor) @connection(key: "operations_feedComments_comments") {
      totalCount
      edges {
        node {
          id
          body
        }
      }
    }
  }
`;

/** The feed's first page. */
export const FeedPage = graphql`
  query operationsFeedQuery {
    ...operations_feed
  }
`;

/**
 * Posting: the payload's `entryEdge` goes to the top of the feeds the client names (@prependEdge). A
 * refused post answers `error` and a null edge, so nothing but an entry ever reaches a feed.
 */
export const Post = graphql`
  mutation operationsPostMutation($input: CreateEntryInput!, $connections: [ID!]!) {
    createEntry(input: $input) {
      clientMutationId
      entryEdge @prependEdge(connections: $connections) {
        cursor
        node {
          id
          message
          author {
            id
            displayName
          }
        }
      }
      error {
        __typename
        ... on ValidationError {
          issues {
            path
            message
          }
        }
      }
    }
  }
`;

/** Commenting: the new comment joins the end of the entry's comments (@appendEdge), and the entry its new count. */
export const AddComment = graphql`
  mutation operationsAddCommentMutation($input: CreateCommentInput!, $connections: [ID!]!) {
    createComment(input: $input) {
      commentEdge @appendEdge(connections: $connections) {
        cursor
        node {
          id
          body
        }
      }
      entry {
        id
        commentCount
      }
    }
  }
`;

/** Deleting: the entry leaves the store (@deleteRecord), and what remains of it is no record of its own. */
export const DeleteEntry = graphql`
  mutation operationsDeleteEntryMutation($input: DeleteEntryInput!) {
    deleteEntry(input: $input) {
      deletedEntryId @deleteRecord
      deletedEntry {
        entryId
        databaseId
      }
    }
  }
`;
