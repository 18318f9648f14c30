// What the mails say: the verification of an address, a notification as it comes, the daily digest.
// Plain text, in English, every link absolute. Pure: letters out, the worker sends them.

export interface Letter {
  subject: string;
  text: string;
}

/** Where a mail's links lead: the service's origin and the person's unsubscribe link, when it has one. */
export interface Links {
  origin: string;
  unsubscribe: string;
}

const footer = (links: Links) =>
  ['', '--', `Choose what you are mailed: ${links.origin}/settings`, `Stop all these mails in one click: ${links.unsubscribe}`].join('\n');

export function verificationLetter(displayName: string, link: string, days: number): Letter {
  return {
    subject: 'Confirm your address for Milepost',
    text: [
      `Hello ${displayName},`,
      '',
      'Someone, we hope you, gave this address for Milepost’s notifications. Follow this link to confirm it:',
      '',
      link,
      '',
      `The link works for ${days} days. If it was not you, do nothing: this address will not be mailed again.`,
    ].join('\n'),
  };
}

export interface Told {
  /** What it says: "Jo and 4 others liked your entry". */
  text: string;
  /** Where it leads: the entry, or the person. */
  url: string;
}

export function notificationLetter(displayName: string, told: Told, links: Links): Letter {
  return {
    subject: told.text,
    text: [
      `Hello ${displayName},`,
      '',
      `${told.text}.`,
      told.url,
      '',
      `All your notifications: ${links.origin}/notifications`,
      footer(links),
    ].join('\n'),
  };
}

/** A day's notifications in one mail: the newest `listed`, and how many more there are. */
export function digestLetter(displayName: string, listed: readonly Told[], total: number, links: Links): Letter {
  const more = total - listed.length;
  return {
    subject: total === 1 ? `Milepost: ${listed[0]!.text}` : `Milepost: ${total} things happened since yesterday`,
    text: [
      `Hello ${displayName},`,
      '',
      total === 1 ? 'Since your last digest:' : `Since your last digest, ${total} things happened:`,
      '',
      ...listed.map((told) => `- ${told.text}\n  ${told.url}`),
      ...(more > 0
        ? ['', `…and ${more} more: ${links.origin}/notifications`]
        : ['', `All your notifications: ${links.origin}/notifications`]),
      footer(links),
    ].join('\n'),
  };
}

/**
 * A mail's Message-ID: the same for every attempt to send it (a resend after a crash is the same
 * message), and never another mail's, even where a row's number comes again (a restored backup, a
 * reset database): the moment it was queued is part of it.
 */
export function messageIdOf(id: number, queuedAt: Date, host: string): string {
  return `<mail-${id}.${queuedAt.getTime().toString(36)}@${host}>`;
}
