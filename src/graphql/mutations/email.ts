// Mailed notifications (src/mail/): the viewer's address, proved by a link mailed to it; how often
// notifications are mailed; and the links of the mails themselves (verify, unsubscribe), which work
// without a token: the link's signed token says whose they are.
import { ADDRESS_MAX, EMAIL_FREQUENCIES, type EmailFrequency, parseEmailAddress } from '../../domain/email.ts';
import { NotAuthorizedError, ValidationError } from '../../domain/errors.ts';
import { queueVerification, VERIFICATIONS_A_DAY, verificationsToday } from '../../mail/outbox.ts';
import { builder } from '../builder.ts';
import { type Context, requireViewer } from '../context.ts';
import { refusingAsErrors, streamField } from '../types/stream-args.ts';
import { type PayloadFieldBuilder, payloadMutation } from './payload.ts';

const TOKEN_MAX = 400;

export const EmailFrequencyEnum = builder.enumType('EmailFrequency', {
  description: 'How often notifications are mailed to a verified address.',
  values: {
    OFF: { value: 'off', description: 'Never: notifications stay in the app.' },
    IMMEDIATE: { value: 'immediate', description: 'Each new notification, as it comes (a burst of likes is one mail).' },
    DAILY: { value: 'daily', description: 'One digest a day of the unread notifications, when there are any.' },
  } satisfies Record<string, { value: EmailFrequency; description: string }>,
});

interface EmailSettings {
  address: string | null;
  verified: boolean;
  frequency: EmailFrequency;
  sends: boolean;
}

const EmailSettingsRef = builder.objectRef<EmailSettings>('EmailSettings').implement({
  description: 'Where and how often the viewer’s notifications are mailed.',
  fields: (t) => ({
    address: t.exposeString('address', { nullable: true, description: 'The address given, verified or not; null for none.' }),
    verified: t.exposeBoolean('verified', {
      description: 'Whether the link mailed to the address was followed: only a verified address is mailed notifications.',
    }),
    frequency: t.field({ type: EmailFrequencyEnum, description: 'How often notifications are mailed.', resolve: (s) => s.frequency }),
    available: t.exposeBoolean('sends', {
      description: 'Whether this Milepost instance sends mail at all (its operator set SMTP_URL); without it no address can be set.',
    }),
  }),
});

async function settingsOf(context: Context, personId: number): Promise<EmailSettings> {
  const person = await context.prisma.person.findUniqueOrThrow({
    where: { id: personId },
    select: { email: true, emailVerifiedAt: true, emailFrequency: true },
  });
  return {
    address: person.email,
    verified: person.email !== null && person.emailVerifiedAt !== null,
    frequency: (EMAIL_FREQUENCIES as readonly string[]).includes(person.emailFrequency) ? (person.emailFrequency as EmailFrequency) : 'off',
    sends: context.mail?.sends ?? false,
  };
}

builder.queryField('emailSettings', (t) =>
  t.field({
    type: EmailSettingsRef,
    ...streamField('Where and how often the viewer’s notifications are mailed. Needs an access token.', ['NotAuthorizedError']),
    resolve: refusingAsErrors(async (_root, _args, context) => settingsOf(context, requireViewer(context).id)),
  }),
);

const settingsPayload = {
  description: 'The viewer’s mail settings as they are now.',
  fields: (t: PayloadFieldBuilder<{ personId: number }>) => ({
    emailSettings: t.field({
      type: EmailSettingsRef,
      nullable: true,
      description: 'The settings now; null when the mutation failed.',
      resolve: (payload, _args, context) => (payload.result ? settingsOf(context, payload.result.personId) : null),
    }),
  }),
};

payloadMutation('setEmail', {
  description: `Gives the address the viewer's notifications are mailed to (at most ${ADDRESS_MAX} characters), or none (\`address: null\` or blank). A new address is mailed a link that verifies it (good for three days); until it is followed nothing else is mailed to it. Giving the same unverified address again mails the link again, at most ${VERIFICATIONS_A_DAY} times a day. Refused (\`ValidationError\` on \`address\`) where the instance sends no mail.`,
  input: {
    description: 'The address.',
    fields: (t) => ({ address: t.string({ description: 'An email address, such as jo@example.com; null or blank for none.' }) }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const address = parseEmailAddress(input.address);
    if (address && !context.mail?.sends)
      throw ValidationError.field('address', 'this Milepost instance sends no mail (its operator has not set SMTP_URL)');
    const person = await context.prisma.person.findUniqueOrThrow({
      where: { id: viewer.id },
      select: { email: true, emailVerifiedAt: true },
    });
    const same = address !== null && person.email?.toLowerCase() === address.toLowerCase();
    if (same && person.emailVerifiedAt) return { personId: viewer.id };
    if (address && (await verificationsToday(context.prisma, viewer.id)) >= VERIFICATIONS_A_DAY)
      throw ValidationError.field('address', `at most ${VERIFICATIONS_A_DAY} verification mails a day: try again tomorrow`);
    await context.prisma.$transaction(async (tx) => {
      await tx.person.update({ where: { id: viewer.id }, data: { email: address, emailVerifiedAt: null }, select: { id: true } });
      if (address) await queueVerification(tx, viewer.id, address);
    });
    return { personId: viewer.id };
  },
  payload: settingsPayload,
});

payloadMutation('setEmailFrequency', {
  description:
    'Chooses how often the viewer’s notifications are mailed (to a verified address): `OFF`, `IMMEDIATE` or `DAILY`. Which kinds are mailed is `setNotificationPreference`’s `email`.',
  input: {
    description: 'How often.',
    fields: (t) => ({ frequency: t.field({ type: EmailFrequencyEnum, required: true, description: 'How often.' }) }),
  },
  scope: 'profile:write',
  errors: [NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    // the first digest comes a day after choosing it, of what happened since
    await context.prisma.person.update({
      where: { id: viewer.id },
      data: { emailFrequency: input.frequency, ...(input.frequency === 'daily' ? { digestQueuedAt: new Date() } : {}) },
      select: { id: true },
    });
    return { personId: viewer.id };
  },
  payload: settingsPayload,
});

/** A token from a mail's link: bounded, or a ValidationError naming `token`. */
function linkToken(token: string): string {
  if (token.length === 0 || token.length > TOKEN_MAX) throw ValidationError.field('token', 'this link is not valid');
  return token;
}

payloadMutation('verifyEmail', {
  description:
    'Verifies an address with the token of the link mailed to it (needs no access token: the link says whose it is). A link that is not genuine, has expired (three days), or names an address the person no longer gives is refused (`ValidationError` on `token`).',
  input: {
    description: 'The token of the link.',
    fields: (t) => ({ token: t.string({ required: true, description: 'The `token` of the link mailed to the address.' }) }),
  },
  scope: 'profile:write',
  errors: [ValidationError],
  resolve: async (input, context) => {
    const token = linkToken(input.token);
    const tokens = context.mail?.tokens;
    const personId = tokens?.personOfVerification(token) ?? null;
    const person =
      personId === null ? null : await context.prisma.person.findUnique({ where: { id: personId }, select: { id: true, email: true } });
    if (!tokens || !person?.email || !tokens.verifies(token, person.id, person.email))
      throw ValidationError.field(
        'token',
        'this link is not valid, or has expired: give your address again on the settings page for a new one',
      );
    await context.prisma.person.updateMany({ where: { id: person.id, emailVerifiedAt: null }, data: { emailVerifiedAt: new Date() } });
    return { personId: person.id };
  },
  payload: {
    description: 'The address verified.',
    fields: (t) => ({
      address: t.string({
        nullable: true,
        description: 'The address now verified; null when the mutation failed.',
        resolve: async (payload, _args, context) =>
          payload.result &&
          (await context.prisma.person.findUniqueOrThrow({ where: { id: payload.result.personId }, select: { email: true } })).email,
      }),
    }),
  },
});

payloadMutation('unsubscribeEmail', {
  description:
    'Stops every notification mail to a person, with the token of the unsubscribe link in each (needs no access token). Their frequency becomes `OFF`; they may choose again in their settings.',
  input: {
    description: 'The token of the link.',
    fields: (t) => ({ token: t.string({ required: true, description: 'The `token` of a mail’s unsubscribe link.' }) }),
  },
  scope: 'profile:write',
  errors: [ValidationError],
  resolve: async (input, context) => {
    const personId = context.mail?.tokens.personOfUnsubscribe(linkToken(input.token)) ?? null;
    const { count } =
      personId === null
        ? { count: 0 }
        : await context.prisma.person.updateMany({ where: { id: personId }, data: { emailFrequency: 'off' } });
    if (count === 0) throw ValidationError.field('token', 'this link is not valid');
    return { unsubscribed: true };
  },
  payload: {
    description: 'Whether the mails stopped.',
    fields: (t) => ({
      unsubscribed: t.boolean({
        nullable: true,
        description: 'True; null when the mutation failed.',
        resolve: (p) => p.result?.unsubscribed ?? null,
      }),
    }),
  },
});
