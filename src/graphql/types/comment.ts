import { builder } from '../builder.ts';

// `author` and `person` are added in person.ts, beside the Person type they return
export const CommentRef = builder.prismaObject('Comment', {
  description: 'A comment on an entry (SPEC 2.4).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    body: t.exposeString('body'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const LikeRef = builder.prismaObject('Like', {
  description: 'A like on an entry; a person likes an entry at most once.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
