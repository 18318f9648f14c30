// Keeping people away: blocking (neither sees the other's entries; the blocked person no longer finds
// the blocker, cannot comment on their entries, like them or ask to be friends; a friendship ends) and
// muting (their entries leave the muter's streams; nobody is told). The rule itself lives with
// visibility: domain/visibility.ts, db/entry-conditions.ts, graphql/lookups.ts.
import { block } from '../../db/friendships.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { builder } from '../builder.ts';
import { type Context, requireViewer } from '../context.ts';
import { requirePersonId } from '../lookups.ts';
import { type PayloadFieldBuilder, type PayloadTypes, payloadMutation, readAfter } from './payload.ts';

type Outcome = { viewerId: number; personId: number };

async function otherPerson(context: Context, username: string): Promise<Outcome> {
  const viewer = requireViewer(context);
  const personId = await requirePersonId(context, username);
  if (personId === viewer.id) throw ValidationError.field('username', 'is you');
  return { viewerId: viewer.id, personId };
}

const input = (what: string) => ({
  description: `The person ${what}.`,
  fields: (t: PothosSchemaTypes.InputFieldBuilder<PayloadTypes, 'InputObject'>) => ({
    username: t.string({ required: true, description: 'A username, in any letter case.' }),
  }),
});

const payload = (description: string) => ({
  description,
  fields: (t: PayloadFieldBuilder<Outcome>) => ({
    person: t.prismaField({
      type: 'Person',
      nullable: true,
      description: 'The person; null when the mutation failed.',
      resolve: (query, result, _args, context) =>
        readAfter(result, query, (outcome, selection) =>
          context.prisma.person.findUnique({ ...selection, where: { id: outcome.personId } }),
        ),
    }),
  }),
});

const errors = [ValidationError, NotFoundError, NotAuthorizedError];

payloadMutation('blockPerson', {
  description:
    'Blocks a person: from now on neither sees the other’s entries, the blocked person no longer finds the viewer (their profile is “not found” to them), and cannot comment on the viewer’s entries, like them or ask to be friends; a friendship or a request between them ends. Blocking twice is not an error. The blocked person is not told.',
  input: input('to block'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context) => {
    const outcome = await otherPerson(context, username);
    const { wereFriends } = await block(context.prisma, outcome.viewerId, outcome.personId);
    if (wereFriends) context.events.publish('friendshipEnded', { personId: outcome.viewerId, friendId: outcome.personId });
    context.events.publish('personBlocked', { blockerId: outcome.viewerId, blockedId: outcome.personId });
    return outcome;
  },
  payload: payload('The person blocked.'),
});

payloadMutation('unblockPerson', {
  description: 'Ends a block the viewer made; a friendship it ended stays ended. Not blocking them is not an error.',
  input: input('to unblock'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context) => {
    const outcome = await otherPerson(context, username);
    await context.prisma.block.deleteMany({ where: { blockerId: outcome.viewerId, blockedId: outcome.personId } });
    return outcome;
  },
  payload: payload('The person unblocked.'),
});

payloadMutation('mutePerson', {
  description:
    'Mutes a person: their entries leave the viewer’s streams (everyone’s, friends’, nearby, popular, search); their own page and their entries by id stay readable. They are not told. Muting twice is not an error.',
  input: input('to mute'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context) => {
    const outcome = await otherPerson(context, username);
    const key = { muterId: outcome.viewerId, mutedId: outcome.personId };
    await context.prisma.mute.upsert({ where: { muterId_mutedId: key }, create: key, update: {}, select: { muterId: true } });
    return outcome;
  },
  payload: payload('The person muted.'),
});

payloadMutation('unmutePerson', {
  description: 'Brings a muted person’s entries back to the viewer’s streams. Not muting them is not an error.',
  input: input('to unmute'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context) => {
    const outcome = await otherPerson(context, username);
    await context.prisma.mute.deleteMany({ where: { muterId: outcome.viewerId, mutedId: outcome.personId } });
    return outcome;
  },
  payload: payload('The person unmuted.'),
});

builder.prismaObjectFields('Person', (t) => ({
  blockedByViewer: t.boolean({
    nullable: true,
    description: 'Whether the viewer blocked this person; null without a viewer.',
    resolve: async (person, _args, context) =>
      context.viewer ? (await context.prisma.block.count({ where: { blockerId: context.viewer.id, blockedId: person.id } })) > 0 : null,
  }),
  mutedByViewer: t.boolean({
    nullable: true,
    description: 'Whether the viewer muted this person; null without a viewer.',
    resolve: async (person, _args, context) =>
      context.viewer ? (await context.prisma.mute.count({ where: { muterId: context.viewer.id, mutedId: person.id } })) > 0 : null,
  }),
}));
