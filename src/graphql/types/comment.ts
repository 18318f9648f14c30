import { builder } from '../builder.ts';
import { countedConnection } from './lists.ts';

// `author` and `person` are added in person.ts, beside the Person type they return
export const CommentRef = builder.prismaNode('Comment', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'A comment on an entry (SPEC 2.4).',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST paths and the original API name it.' }),
    body: t.exposeString('body', { description: 'The text, 1 to 510 characters.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written.' }),
  }),
});

export const LikeRef = builder.prismaNode('Like', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'A like on an entry; a person likes an entry at most once.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST paths and the original API name it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was given.' }),
  }),
});

export const { connection: CommentConnection, edge: CommentEdge } = countedConnection(CommentRef, 'Comment', 'comments');
export const { connection: LikeConnection, edge: LikeEdge } = countedConnection(LikeRef, 'Like', 'likes');
