// The pages every `url` of the API points at: the home feed, an entry, a person, a route. Rendered on
// the server as plain HTML (no script), readable on a phone; every value is escaped.
import { escapeMarkup as e } from '../domain/markup.ts';
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

export const PAGE_STYLE = `
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
`;

/** `2024-06-01 12:00 UTC`, in a <time> element carrying the exact instant. */
function time(iso: string): string {
  return `<time datetime="${e(iso)}">${e(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}

function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

const lower = (value: string) => value.toLowerCase().replace(/_/g, ' ');
const distance = (d: { value: number; units: string }) => `${Number(d.value.toFixed(2))} ${e(lower(d.units))}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function avatar(person: PagePerson, size: 'avatar' | '' = 'avatar'): string {
  // the name is written beside every picture: the picture itself is decoration
  return `<img class="${size}" src="${e(person.photoUrl)}" alt="" width="48" height="48">`;
}

function personLink(person: PagePerson): string {
  return `<a href="${e(person.url)}">${e(person.displayName)}</a> <span class="meta">@${e(person.username)}</span>`;
}

function workoutLine(workout: NonNullable<PageEntry['workout']>): string {
  const parts = [workout.title ? e(workout.title) : e(lower(workout.activityType))];
  if (workout.distance) parts.push(distance(workout.distance));
  if (workout.duration) parts.push(formatDuration(workout.duration));
  if (workout.felt) parts.push(`felt ${e(lower(workout.felt))}`);
  return `<p class="workout">${parts.join(' · ')}</p>`;
}

/** One entry as a card; `heading` is the level of its title in the page's outline. */
function entryCard(entry: PageEntry, options: { link: boolean }): string {
  const title = options.link
    ? `<a href="${e(entry.url)}">Entry by ${e(entry.author.displayName)}</a>`
    : `Entry by ${e(entry.author.displayName)}`;
  return `<article class="card entry" aria-labelledby="entry-${entry.id}">
  ${avatar(entry.author)}
  <div>
    <h2 id="entry-${entry.id}" class="visually-plain">${title}</h2>
    <p class="meta">${personLink(entry.author)} · ${time(entry.at)}${entry.location ? ` · ${e(entry.location.name)}` : ''}</p>
  </div>
  <div class="body">
    ${entry.workout ? workoutLine(entry.workout) : ''}
    ${entry.message ? `<p>${e(entry.message)}</p>` : ''}
    <p class="meta">${plural(entry.commentCount, 'comment')} · ${plural(entry.likeCount, 'like')}</p>
  </div>
</article>`;
}

function pager(base: string, page: number, hasNext: boolean): string {
  const previous = page > 1 ? `<a href="${e(base)}?page=${page - 1}" rel="prev">Newer entries</a>` : '<span></span>';
  const next = hasNext ? `<a href="${e(base)}?page=${page + 1}" rel="next">Older entries</a>` : '';
  return `<nav class="pages" aria-label="Pages">${previous}${next}</nav>`;
}

/** Who is looking (their name and the log-out button in the header), when they are logged in. */
export interface Visitor {
  viewer: PageViewer | null;
  csrf: string;
}

function page(visitor: Visitor, title: string, body: string): string {
  return layout(title, body, visitor.viewer, visitor.csrf).replace('</style>', `${PAGE_STYLE}</style>`);
}

export function feedPage(visitor: Visitor, entries: PageEntry[], pageNumber: number, hasNext: boolean): string {
  const list = entries.length
    ? entries.map((entry) => entryCard(entry, { link: true })).join('\n')
    : '<p class="card">Nothing posted yet.</p>';
  return page(visitor, 'Latest from everyone', `${list}${pager('/', pageNumber, hasNext)}`);
}

function trackFigures(track: PageTrack, title: string): string {
  if (track.outline.length === 0) return '';
  const map = trackMapSvg(track.outline, { title: `Map of ${title}` });
  const profile = elevationProfileSvg(track.outline, { title: `Elevation of ${title}` });
  return `<section class="card" aria-labelledby="track-heading"><h2 id="track-heading">Track</h2>
  <p>${(track.distanceMeters / 1000).toFixed(2)} km · ${Math.round(track.elevationGain)} m climbed · ${track.pointCount} points</p>
  <figure>${map}<figcaption>The path, north up; green marks the start, red the finish.</figcaption></figure>
  ${profile ? `<figure>${profile}<figcaption>Elevation along the way.</figcaption></figure>` : ''}
</section>`;
}

export function entryPage(visitor: Visitor, entry: EntryDetail): string {
  const comments = entry.comments.edges.length
    ? `<ul class="plain">${entry.comments.edges.map(({ node: c }) => `<li id="comment-${c.id}">${personLink(c.author)} · ${time(c.createdAt)}<p>${e(c.body)}</p></li>`).join('')}</ul>`
    : '<p>No comments yet.</p>';
  const likes = entry.likes.edges.length
    ? `<ul class="plain people">${entry.likes.edges.map(({ node: l }) => `<li>${avatar(l.person, '')}${personLink(l.person)}</li>`).join('')}</ul>`
    : '<p>No likes yet.</p>';
  return page(
    visitor,
    `${entry.author.displayName}’s entry`,
    `${entryCard(entry, { link: false })}
${entry.track ? trackFigures(entry.track, `this ${entry.workout ? lower(entry.workout.activityType) : 'entry'}`) : ''}
<section class="card" aria-labelledby="comments-heading"><h2 id="comments-heading">Comments</h2>${comments}</section>
<section class="card" aria-labelledby="likes-heading"><h2 id="likes-heading">Likes</h2>${likes}</section>`,
  );
}

export function personPage(visitor: Visitor, person: PagePersonDetail, entries: PageEntry[], pageNumber: number, hasNext: boolean): string {
  const about = [person.location ? `<p>${e(person.location)}</p>` : '', person.goal ? `<p>Goal: ${e(person.goal)}</p>` : ''].join('');
  const friends = person.friends.edges.length
    ? `<ul class="plain people">${person.friends.edges.map(({ node: f }) => `<li>${avatar(f, '')}${personLink(f)}</li>`).join('')}</ul>`
    : '<p>No friends yet.</p>';
  const routes = person.routes.edges.length
    ? `<ul class="plain">${person.routes.edges
        .map(
          ({ node: r }) =>
            `<li><a href="/routes/${r.id}">${e(r.name ?? `Route ${r.id}`)}</a>${r.activityType ? ` · ${e(lower(r.activityType))}` : ''}${r.distance ? ` · ${distance(r.distance)}` : ''}</li>`,
        )
        .join('')}</ul>`
    : '<p>No routes yet.</p>';
  const stream = entries.length
    ? entries.map((entry) => entryCard(entry, { link: true })).join('\n')
    : '<p class="card">No entries yet.</p>';
  return page(
    visitor,
    person.displayName,
    `<section class="card person"><p>${avatar(person)} @${e(person.username)}</p>${about}</section>
<section aria-labelledby="entries-heading"><h2 id="entries-heading">Entries</h2>${stream}${pager(`/people/${encodeURIComponent(person.username)}`, pageNumber, hasNext)}</section>
${trainingSection(person)}
<section class="card" aria-labelledby="friends-heading"><h2 id="friends-heading">Friends</h2>${friends}</section>
<section class="card" aria-labelledby="routes-heading"><h2 id="routes-heading">Routes</h2>${routes}</section>`,
  );
}

const statsPath = (username: string) => `/people/${encodeURIComponent(username)}/stats`;

/** A year of weekly distance, the records and the streak: what the person lets everyone see. */
function trainingSection(person: PagePersonDetail): string {
  if (!person.records || !person.streak || person.weekly?.__typename !== 'TrainingStats') return '';
  const weeks = 'periods' in person.weekly ? person.weekly.periods : [];
  return `<section class="card" aria-labelledby="training-heading"><h2 id="training-heading">Training</h2>
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
export function statsPage(visitor: Visitor, person: PersonStats, filter: StatsFilter, activityTypes: readonly string[]): string {
  const base = statsPath(person.username);
  const link = (period: StatsFilter['period'], activityType: string | null, label: string, current: boolean) => {
    const query = new URLSearchParams({ period: period.toLowerCase() });
    if (activityType) query.set('activity', activityType.toLowerCase());
    return `<a href="${e(`${base}?${query}`)}"${current ? ' aria-current="page"' : ''}>${e(label)}</a>`;
  };
  const periods = (Object.keys(PERIOD_NAMES) as Array<StatsFilter['period']>)
    .map((period) => link(period, filter.activityType, PERIOD_NAMES[period], period === filter.period))
    .join('');
  const activities = [null, ...activityTypes]
    .map((type) => link(filter.period, type, type ? lower(type) : 'all activities', type === filter.activityType))
    .join('');
  const filters = `<nav class="filters" aria-label="Period">${periods}</nav><nav class="filters" aria-label="Activity">${activities}</nav>`;
  const stats = person.stats;
  let body: string;
  if (!stats) body = '<p class="card">These stats are private.</p>';
  else if (stats.__typename !== 'TrainingStats' || !('periods' in stats))
    body = `<p class="card">${e('message' in stats ? stats.message : 'No stats.')}</p>`;
  else {
    const what = `${filter.activityType ? lower(filter.activityType) : 'all activities'}, by ${filter.period.toLowerCase()}`;
    const rows = [...stats.periods]
      .reverse()
      .map((period) => `<tr><th scope="row">${e(period.firstDay)}</th>${totalsCells(period)}</tr>`)
      .join('');
    body = `<section class="card" aria-labelledby="chart-heading"><h2 id="chart-heading">Distance: ${e(what)}</h2>
<figure>${distanceChartSvg(stats.periods, { id: 'stats', title: `Distance, ${what}` })}<figcaption>Days are in ${e(stats.timeZone)}.</figcaption></figure>
<div class="scroll" tabindex="0" role="region" aria-label="Totals by period"><table><caption class="meta">Newest first; moving time as hours:minutes:seconds</caption>
<thead><tr><th scope="col">From</th><th scope="col">Workouts</th><th scope="col">Distance</th><th scope="col">Moving</th><th scope="col">Climb</th></tr></thead>
<tbody>${rows}</tbody><tfoot><tr><th scope="row">Total</th>${totalsCells(stats.total)}</tr></tfoot></table></div></section>`;
  }
  const training =
    person.records && person.streak
      ? `<section class="card" aria-labelledby="records-heading"><h2 id="records-heading">Records and streak</h2>${streakText(person.streak)}${recordsTable(person.records)}</section>`
      : '';
  return page(
    visitor,
    `${person.displayName}: stats`,
    `<p><a href="${e(person.url)}">Back to ${e(person.displayName)}</a></p>${filters}${body}${training}`,
  );
}

export function routePage(visitor: Visitor, route: RouteDetail): string {
  const title = route.name ?? `Route ${route.id}`;
  const facts = [route.activityType ? e(lower(route.activityType)) : null, route.distance ? distance(route.distance) : null]
    .filter(Boolean)
    .join(' · ');
  return page(
    visitor,
    title,
    `<section class="card"><p>A route by ${personLink(route.owner)}${facts ? ` · ${facts}` : ''}</p>
<p><a href="/routes/${route.id}.gpx" download>Download the GPX</a></p></section>
${route.track ? trackFigures(route.track, title) : '<p class="card">No track has been uploaded for this route yet.</p>'}`,
  );
}

export function notFoundPage(visitor: Visitor, what: string): string {
  return page(
    visitor,
    'Not found',
    `<p class="card">${e(what)} does not exist, or it was deleted.</p><p><a href="/">Back to the latest entries</a></p>`,
  );
}
