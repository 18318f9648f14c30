// An entry as the pages show it: a card with its title, author, time, place, workout, photo and counts.
// Pure: typed GraphQL results in, markup out.
import { MENTION } from '../domain/notifications.ts';
import { firstWords } from '../domain/words.ts';
import { html, type Markup } from '../http/html.ts';
import type { PageEntryFragment, PagePersonFragment } from '../operations/generated.ts';
import { trackMapSvg } from './track-svg.ts';
import { distanceIn, metersOf, paceIn, type UnitSystem } from './units.ts';

export type PagePerson = PagePersonFragment;
export type PageEntry = PageEntryFragment;

/** `2024-06-01 12:00 UTC`, in a <time> element carrying the exact instant. */
export function time(iso: string): Markup {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** An enum value in words: `CC_SKIING` → `cc skiing`. */
export const lower = (value: string) => value.toLowerCase().replace(/_/g, ' ');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function avatar(person: PagePerson, size: 'avatar' | '' = 'avatar'): Markup {
  // the name is written beside every picture: the picture itself is decoration
  return html`<img class="${size}" src="${person.photoUrl}" alt="" width="48" height="48">`;
}

export function personLink(person: PagePerson): Markup {
  return html`<a href="${person.url}">${person.displayName}</a> <span class="meta">@${person.username}</span>`;
}

const VISIBILITY_NAMES: Record<string, string> = { EVERYONE: 'Everyone', FRIENDS: 'Friends only', ONLY_ME: 'Only the author' };
export const visibilityName = (visibility: string) => VISIBILITY_NAMES[visibility] ?? lower(visibility);

/**
 * What the card is called: the workout's title, else its activity and distance, else the note's first
 * words; an entry with neither is the author's note.
 */
export function entryTitle(entry: PageEntry, units: UnitSystem): string {
  const workout = entry.workout;
  if (workout?.title) return workout.title;
  if (workout)
    return `${capital(lower(workout.activityType))}${workout.distance ? `, ${distanceIn(metersOf(workout.distance), units)}` : ''}`;
  const words = firstWords(entry.message ?? '', 60, 57);
  if (words) return words;
  return `A note by ${entry.author.displayName}`;
}

/** When the workout was done, if that is not about when it was posted (an hour apart or more). */
function doneAt(workout: NonNullable<PageEntry['workout']>, postedAt: string): Markup | null {
  if (!workout.completedAt || Math.abs(Date.parse(workout.completedAt) - Date.parse(postedAt)) < 3_600_000) return null;
  return html` · done ${time(workout.completedAt)}`;
}

function workoutLine(workout: NonNullable<PageEntry['workout']>, units: UnitSystem, postedAt: string): Markup {
  const meters = workout.distance ? metersOf(workout.distance) : null;
  const parts = [capital(lower(workout.activityType))];
  if (meters !== null) parts.push(distanceIn(meters, units));
  if (workout.duration) parts.push(formatDuration(workout.duration));
  const pace = meters !== null && workout.duration ? paceIn(meters, workout.duration, units) : null;
  if (pace && workout.activityType !== 'CYCLING') parts.push(pace);
  if (workout.felt) parts.push(`felt ${lower(workout.felt)}`);
  return html`<p class="workout">${parts.join(' · ')}${doneAt(workout, postedAt)}</p>`;
}

/** The entry's photos: the preview for narrow screens, the picture itself for wide ones. */
function photos(entry: PageEntry, title: string): Markup | null {
  if (entry.media.length === 0) return null;
  return html`${entry.media.map(
    (media) =>
      html`<a class="photo" href="${media.content.url}"><img src="${media.preview?.url ?? media.content.url}" srcset="${media.preview ? `${media.preview.url} 320w, ` : ''}${media.content.url} 1280w" sizes="(max-width: 40rem) 100vw, 40rem" alt="Photo of ${title}" loading="lazy"></a>`,
  )}`;
}

/** Text with each `@username` linked to that person's page (whoever they are: an unknown one is a 404 there). */
export function withMentions(text: string): Markup {
  const parts: Array<Markup | string> = [];
  let from = 0;
  for (const match of text.matchAll(MENTION)) {
    const at = match.index + match[1]!.length;
    parts.push(text.slice(from, at), html`<a href="/people/${match[2]!.toLowerCase()}">@${match[2]}</a>`);
    from = at + match[2]!.length + 1;
  }
  parts.push(text.slice(from));
  return html`${parts}`;
}

/** One entry as a card; `link` makes its title lead to the entry's page (on that page, the page's own heading is the title). */
export function entryCard(entry: PageEntry, options: { link: boolean; units: UnitSystem }): Markup {
  const title = entryTitle(entry, options.units);
  const heading = options.link ? html`<a href="${entry.url}">${title}</a>` : title;
  const shown = entry.visibility === 'EVERYONE' ? null : html` · <span class="badge">${visibilityName(entry.visibility)}</span>`;
  const longMessage = entry.workout?.title || (entry.message?.length ?? 0) > 60 || entry.workout;
  return html`<article class="card entry" aria-labelledby="entry-${entry.id}">
  ${avatar(entry.author)}
  <div>
    <h2 id="entry-${entry.id}"${options.link ? '' : html` class="visually-hidden"`}>${heading}</h2>
    <p class="meta">${personLink(entry.author)} · ${time(entry.at)}${entry.location && ` · ${entry.location.name}`}${shown}</p>
  </div>
  <div class="body">
    ${options.link && entry.track?.thumbnail.length ? html`<a href="${entry.url}" class="thumb" tabindex="-1" aria-hidden="true">${trackMapSvg(entry.track.thumbnail, { width: 240, height: 150, title: title, thumbnail: true })}</a>` : null}
    ${entry.workout && workoutLine(entry.workout, options.units, entry.at)}
    ${entry.message && longMessage ? html`<p>${withMentions(entry.message)}</p>` : null}
    ${photos(entry, title)}
    <p class="meta"><a href="${entry.url}#comments-heading">${plural(entry.commentCount, 'comment')}</a> · ${plural(entry.likeCount, 'like')}</p>
  </div>
</article>`;
}

/** Links to the newer and older pages of `base` (which may hold a query of its own). */
export function pager(base: string, page: number, hasNext: boolean): Markup {
  const at = (n: number) => `${base}${base.includes('?') ? '&' : '?'}page=${n}`;
  const previous = page > 1 ? html`<a href="${at(page - 1)}" rel="prev">Newer entries</a>` : html`<span></span>`;
  const next = hasNext && html`<a href="${at(page + 1)}" rel="next">Older entries</a>`;
  return html`<nav class="pages" aria-label="Pages">${previous}${next}</nav>`;
}
