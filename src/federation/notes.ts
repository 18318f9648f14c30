// An entry as the fediverse gets it: a Note with its message, the workout in words a Mastodon reader
// reads, its photo and a link to it; never a place. And the Create that carries it.
import type { Context as FedifyContext } from '@fedify/fedify';
import { Create, Document, Note, PUBLIC_COLLECTION } from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import { MAX_REMOTE_TEXT } from '../domain/fediverse.ts';
import { escapeMarkup } from '../domain/markup.ts';
import { formatDuration, lower } from '../web/entry-card.ts';
import type { PublicNote } from './reader.ts';

/** Text as one HTML paragraph. */
export const paragraph = (text: string) => `<p>${escapeMarkup(text)}</p>`;

/** The Note's HTML: the message, the workout in words, and a link to the entry. */
export function noteHtml(entry: PublicNote): string {
  const parts: string[] = [];
  if (entry.message) parts.push(paragraph(entry.message.slice(0, MAX_REMOTE_TEXT)));
  const workout = entry.workout;
  if (workout) {
    const words = [workout.title, lower(workout.activityType)].filter(Boolean).join(': ');
    const figures = [
      workout.distance ? `${Number(workout.distance.value.toFixed(2))} ${workout.distance.units.toLowerCase()}` : null,
      workout.duration ? formatDuration(workout.duration) : null,
    ].filter(Boolean);
    parts.push(paragraph([words, ...figures].join(' · ')));
  }
  parts.push(`<p><a href="${escapeMarkup(entry.url)}">${escapeMarkup(entry.url)}</a></p>`);
  return parts.join('');
}

/** The entry's Note, at the entry page's URL. */
export function noteOf(ctx: FedifyContext<void>, entry: PublicNote): Note {
  return new Note({
    id: new URL(entry.url),
    attribution: ctx.getActorUri(entry.author.username),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(entry.author.username),
    url: new URL(entry.url),
    published: Temporal.Instant.from(entry.at),
    content: noteHtml(entry),
    attachments: entry.media.map((media) => new Document({ mediaType: 'image/jpeg', url: new URL(media.content.url) })),
  });
}

/** The Create of an entry's Note (its id stable: the outbox and a delivery name the same one). */
export function createOf(ctx: FedifyContext<void>, entry: PublicNote, note = noteOf(ctx, entry)): Create {
  return new Create({
    id: new URL(`${entry.url}#create`),
    actor: ctx.getActorUri(entry.author.username),
    object: note,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(entry.author.username),
    published: Temporal.Instant.from(entry.at),
  });
}
