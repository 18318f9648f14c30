import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/scalars.ts';
import './types/errors.ts';
import './types/enums.ts';
import './types/entry.ts';
import './types/person.ts';
import './types/workout.ts';
import './types/comment.ts';
import './types/route.ts';
import './types/stats.ts';
import './mutations/entries.ts';
import './mutations/reactions.ts';
import './mutations/routes.ts';
import './mutations/people.ts';
import './subscriptions.ts';

export const schema = builder.toSchema();
export const sortedSchema = lexicographicSortSchema(schema);
