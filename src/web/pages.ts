// The pages every `url` of the API points at: the home feed, an entry, a person, a route. Rendered on
// the server as plain HTML (no script), readable on a phone; built with `html`, which escapes every value.

import { html, type Markup, raw } from '../http/html.ts';
import type {
  PageEntryDetailQuery,
  PageEntryFragment,
  PagePersonDetailQuery,
  PagePersonFragment,
  PagePersonStatsQuery,
  PageRouteQuery,
  PageTrackFragment,
} from '../operations/generated.ts';
import { layout, type PageViewer } from './layout.ts';
import { elevationProfileSvg, trackMapSvg } from './track-svg.ts';
import { distanceChartSvg, recordsTable, streakText, totalsCells } from './training.ts';

/** What the pages are drawn from: the typed results of src/operations/pages.graphql. */
export type PagePerson = PagePersonFragment;
export type PageEntry = PageEntryFragment;
export type PageTrack = PageTrackFragment;
export type PagePersonDetail = NonNullable<PagePersonDetailQuery['person']>;
type EntryDetail = NonNullable<PageEntryDetailQuery['entry']>;
type RouteDetail = NonNullable<PageRouteQuery['route']>;

export const PAGE_STYLE = raw(`
  .entry { display: grid; grid-template-columns: 48px 1fr; gap: .25rem .75rem; }
  .entry img.avatar, .person img.avatar { width: 48px; height: 48px; border-radius: 50%; }
  .entry .meta { color: #4a5568; font-size: .9rem; }
  .entry .body { grid-column: 2; }
  .workout { font-weight: 600; }
  ul.plain { list-style: none; padding: 0; margin: 0; }
  ul.plain li { padding: .5rem 0; border-top: 1px solid #e2e6ea; }
  ul.people li { display: flex; align-items: center; gap: .5rem; }
  ul.people img { width: 32px; height: 32px; border-radius: 50%; }
  svg { width: 100%; height: auto; display: block; }
  figure { margin: 1rem 0; }
  figcaption { color: #4a5568; font-size: .9rem; }
  nav.pages { display: flex; justify-content: space-between; margin: 1rem 0; }
  nav.filters { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0; }
  nav.filters a[aria-current] { font-weight: 700; text-decoration: none; color: #1d2430; }
  .scroll { overflow-x: auto; }
  .scroll table { font-size: .9rem; } .scroll th[scope=row] { white-space: nowrap; }
  caption { text-align: left; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
  main { max-width: 42rem; }
`);

/** `2024-06-01 12:00 UTC`, in a <time> element carrying the exact instant. */
function time(iso: string): Markup {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

const lower = (value: string) => value.toLowerCase().replace(/_/g, ' ');
const distance = (d: { value: number; units: string }) => `${Number(d.value.toFixed(2))} ${lower(d.units)}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function avatar(person: PagePerson, size: 'avatar' | '' = 'avatar'): Markup {
  // the name is written beside every picture: the picture itself is decoration
  return html`<img class="${size}" src="${person.photoUrl}" alt="" width="48" height="48">`;
}

function personLink(person: PagePerson): Markup {
  return html`<a href="${person.url}">${person.displayName}</a> <span class="meta">@${person.username}</span>`;
}

function workoutLine(workout: NonNullable<PageEntry['workout']>): Markup {
  const parts = [workout.title ? workout.title : lower(workout.activityType)];
  if (workout.distance) parts.push(distance(workout.distance));
  if (workout.duration) parts.push(formatDuration(workout.duration));
  if (workout.felt) parts.push(`felt ${lower(workout.felt)}`);
  return html`<p class="workout">${parts.join(' · ')}</p>`;
}

/** One entry as a card; `heading` is the level of its title in the page's outline. */
function entryCard(entry: PageEntry, options: { link: boolean }): Markup {
  const title = options.link
    ? html`<a href="${entry.url}">Entry by ${entry.author.displayName}</a>`
    : `Entry by ${entry.author.displayName}`;
  return html`<article class="card entry" aria-labelledby="entry-${entry.id}">
  ${avatar(entry.author)}
  <div>
    <h2 id="entry-${entry.id}" class="visually-plain">${title}</h2>
    <p class="meta">${personLink(entry.author)} · ${time(entry.at)}${entry.location ? ` · ${entry.location.name}` : ''}</p>
  </div>
  <div class="body">
    ${entry.workout && workoutLine(entry.workout)}
    ${entry.message && html`<p>${entry.message}</p>`}
    <p class="meta">${plural(entry.commentCount, 'comment')} · ${plural(entry.likeCount, 'like')}</p>
  </div>
</article>`;
}

function pager(base: string, page: number, hasNext: boolean): Markup {
  const previous = page > 1 ? html`<a href="${base}?page=${page - 1}" rel="prev">Newer entries</a>` : html`<span></span>`;
  const next = hasNext && html`<a href="${base}?page=${page + 1}" rel="next">Older entries</a>`;
  return html`<nav class="pages" aria-label="Pages">${previous}${next}</nav>`;
}

/** Who is looking (their name and the log-out button in the header), when they are logged in. */
export interface Visitor {
  viewer: PageViewer | null;
  csrf: string;
}

function page(visitor: Visitor, title: string, body: Markup): Markup {
  return layout(title, body, visitor.viewer, visitor.csrf, PAGE_STYLE);
}

export function feedPage(visitor: Visitor, entries: PageEntry[], pageNumber: number, hasNext: boolean): Markup {
  const list = entries.length ? entries.map((entry) => entryCard(entry, { link: true })) : html`<p class="card">Nothing posted yet.</p>`;
  return page(visitor, 'Latest from everyone', html`${list}${pager('/', pageNumber, hasNext)}`);
}

function trackFigures(track: PageTrack, title: string): Markup | null {
  if (track.outline.length === 0) return null;
  const map = trackMapSvg(track.outline, { title: `Map of ${title}` });
  const profile = elevationProfileSvg(track.outline, { title: `Elevation of ${title}` });
  return html`<section class="card" aria-labelledby="track-heading"><h2 id="track-heading">Track</h2>
  <p>${(track.distanceMeters / 1000).toFixed(2)} km · ${Math.round(track.elevationGain)} m climbed · ${track.pointCount} points</p>
  <figure>${map}<figcaption>The path, north up; green marks the start, red the finish.</figcaption></figure>
  ${profile && html`<figure>${profile}<figcaption>Elevation along the way.</figcaption></figure>`}
</section>`;
}

export function entryPage(visitor: Visitor, entry: EntryDetail): Markup {
  const comments = entry.comments.edges.length
    ? html`<ul class="plain">${entry.comments.edges.map(({ node: c }) => html`<li id="comment-${c.id}">${personLink(c.author)} · ${time(c.createdAt)}<p>${c.body}</p></li>`)}</ul>`
    : html`<p>No comments yet.</p>`;
  const likes = entry.likes.edges.length
    ? html`<ul class="plain people">${entry.likes.edges.map(({ node: l }) => html`<li>${avatar(l.person, '')}${personLink(l.person)}</li>`)}</ul>`
    : html`<p>No likes yet.</p>`;
  return page(
    visitor,
    `${entry.author.displayName}’s entry`,
    html`${entryCard(entry, { link: false })}
${entry.track && trackFigures(entry.track, `this ${entry.workout ? lower(entry.workout.activityType) : 'entry'}`)}
<section class="card" aria-labelledby="comments-heading"><h2 id="comments-heading">Comments</h2>${comments}</section>
<section class="card" aria-labelledby="likes-heading"><h2 id="likes-heading">Likes</h2>${likes}</section>`,
  );
}

export function personPage(visitor: Visitor, person: PagePersonDetail, entries: PageEntry[], pageNumber: number, hasNext: boolean): Markup {
  const about = html`${person.location && html`<p>${person.location}</p>`}${person.goal && html`<p>Goal: ${person.goal}</p>`}`;
  const friends = person.friends.edges.length
    ? html`<ul class="plain people">${person.friends.edges.map(({ node: f }) => html`<li>${avatar(f, '')}${personLink(f)}</li>`)}</ul>`
    : html`<p>No friends yet.</p>`;
  const routes = person.routes.edges.length
    ? html`<ul class="plain">${person.routes.edges.map(
        ({ node: r }) =>
          html`<li><a href="/routes/${r.id}">${r.name ?? `Route ${r.id}`}</a>${r.activityType && ` · ${lower(r.activityType)}`}${r.distance && ` · ${distance(r.distance)}`}</li>`,
      )}</ul>`
    : html`<p>No routes yet.</p>`;
  const stream = entries.length ? entries.map((entry) => entryCard(entry, { link: true })) : html`<p class="card">No entries yet.</p>`;
  return page(
    visitor,
    person.displayName,
    html`<section class="card person"><p>${avatar(person)} @${person.username}</p>${about}</section>
<section aria-labelledby="entries-heading"><h2 id="entries-heading">Entries</h2>${stream}${pager(`/people/${encodeURIComponent(person.username)}`, pageNumber, hasNext)}</section>
${trainingSection(person)}
<section class="card" aria-labelledby="friends-heading"><h2 id="friends-heading">Friends</h2>${friends}</section>
<section class="card" aria-labelledby="routes-heading"><h2 id="routes-heading">Routes</h2>${routes}</section>`,
  );
}

const statsPath = (username: string) => `/people/${encodeURIComponent(username)}/stats`;

/** A year of weekly distance, the records and the streak: what the person lets everyone see. */
function trainingSection(person: PagePersonDetail): Markup | null {
  if (!person.records || !person.streak || person.weekly?.__typename !== 'TrainingStats') return null;
  const weeks = 'periods' in person.weekly ? person.weekly.periods : [];
  return html`<section class="card" aria-labelledby="training-heading"><h2 id="training-heading">Training</h2>
<figure>${distanceChartSvg(weeks, { id: 'weekly', title: 'Distance per week over the last year' })}<figcaption>Distance per week over the last year.</figcaption></figure>
${streakText(person.streak)}
${recordsTable(person.records)}
<p><a href="${statsPath(person.username)}">All stats, by week, month or year</a></p></section>`;
}

type PersonStats = NonNullable<PagePersonStatsQuery['person']>;
export interface StatsFilter {
  period: 'WEEK' | 'MONTH' | 'YEAR';
  activityType: string | null;
}

const PERIOD_NAMES = { WEEK: 'Weeks', MONTH: 'Months', YEAR: 'Years' } as const;

/** The stats page: totals per period with links to change the period and the activity. */
export function statsPage(visitor: Visitor, person: PersonStats, filter: StatsFilter, activityTypes: readonly string[]): Markup {
  const base = statsPath(person.username);
  const link = (period: StatsFilter['period'], activityType: string | null, label: string, current: boolean) => {
    const params = new URLSearchParams({ period: period.toLowerCase() });
    if (activityType) params.set('activity', activityType.toLowerCase());
    const href = `${base}?${params}`;
    return current ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`;
  };
  const periods = (Object.keys(PERIOD_NAMES) as Array<StatsFilter['period']>).map((period) =>
    link(period, filter.activityType, PERIOD_NAMES[period], period === filter.period),
  );
  const activities = [null, ...activityTypes].map((type) =>
    link(filter.period, type, type ? lower(type) : 'all activities', type === filter.activityType),
  );
  const filters = html`<nav class="filters" aria-label="Period">${periods}</nav><nav class="filters" aria-label="Activity">${activities}</nav>`;
  const stats = person.stats;
  let body: Markup;
  if (!stats) body = html`<p class="card">These stats are private.</p>`;
  else if (stats.__typename !== 'TrainingStats' || !('periods' in stats))
    body = html`<p class="card">${'message' in stats ? stats.message : 'No stats.'}</p>`;
  else {
    const what = `${filter.activityType ? lower(filter.activityType) : 'all activities'}, by ${filter.period.toLowerCase()}`;
    const rows = [...stats.periods].reverse().map((period) => html`<tr><th scope="row">${period.firstDay}</th>${totalsCells(period)}</tr>`);
    body = html`<section class="card" aria-labelledby="chart-heading"><h2 id="chart-heading">Distance: ${what}</h2>
<figure>${distanceChartSvg(stats.periods, { id: 'stats', title: `Distance, ${what}` })}<figcaption>Days are in ${stats.timeZone}.</figcaption></figure>
<div class="scroll" tabindex="0" role="region" aria-label="Totals by period"><table><caption class="meta">Newest first; moving time as hours:minutes:seconds</caption>
<thead><tr><th scope="col">From</th><th scope="col">Workouts</th><th scope="col">Distance</th><th scope="col">Moving</th><th scope="col">Climb</th></tr></thead>
<tbody>${rows}</tbody><tfoot><tr><th scope="row">Total</th>${totalsCells(stats.total)}</tr></tfoot></table></div></section>`;
  }
  const training =
    person.records && person.streak
      ? html`<section class="card" aria-labelledby="records-heading"><h2 id="records-heading">Records and streak</h2>${streakText(person.streak)}${recordsTable(person.records)}</section>`
      : null;
  return page(
    visitor,
    `${person.displayName}: stats`,
    html`<p><a href="${person.url}">Back to ${person.displayName}</a></p>${filters}${body}${training}`,
  );
}

export function routePage(visitor: Visitor, route: RouteDetail): Markup {
  const title = route.name ?? `Route ${route.id}`;
  const facts = [route.activityType ? lower(route.activityType) : null, route.distance ? distance(route.distance) : null]
    .filter(Boolean)
    .join(' · ');
  return page(
    visitor,
    title,
    html`<section class="card"><p>A route by ${personLink(route.owner)}${facts ? ` · ${facts}` : ''}</p>
<p><a href="/routes/${route.id}.gpx" download>Download the GPX</a></p></section>
${route.track ? trackFigures(route.track, title) : html`<p class="card">No track has been uploaded for this route yet.</p>`}`,
  );
}

export function notFoundPage(visitor: Visitor, what: string): Markup {
  return page(
    visitor,
    'Not found',
    html`<p class="card">${what} does not exist, or it was deleted.</p><p><a href="/">Back to the latest entries</a></p>`,
  );
}
