// The pages every `url` of the API points at: the home feed, an entry, a person, a route. Rendered on
// the server as plain HTML (no script), readable on a phone; built with `html`, which escapes every value.

import { decodeGlobalID } from '@pothos/plugin-relay';
import type { FieldIssue } from '../domain/errors.ts';
import { firstWords } from '../domain/words.ts';
import { html, type Markup, raw } from '../http/html.ts';
import type {
  PageEntryDetailQuery,
  PageFediverseStreamQuery,
  PagePersonDetailQuery,
  PagePersonStatsQuery,
  PageRouteQuery,
  PageTrackFragment,
} from '../operations/generated.ts';
import { hidden, issuesBlock, layout, type PageViewer } from '../pages/layout.ts';
import { ENTRY_ASSETS, MAP_ASSETS, type MapData, type MapSpec, PAGE_ASSETS } from './assets.ts';
import {
  avatar,
  entryCard,
  entryTitle,
  lower,
  type PageEntry,
  type PagePerson,
  pager,
  personLink,
  plural,
  time,
  withMentions,
} from './entry-card.ts';
import { deleteCommentForm, editCommentForm, entryActions, friendshipForm, reportForm, safetyForm, searchForm } from './forms.ts';
import { type GearChoice, type GearDetail, gearLine, gearPageBody, gearSection } from './gear-pages.ts';
import { elevationProfileSvg, trackMapSvg } from './track-svg.ts';
import { distanceChartSvg, recordsTable, streakText, totalsCells, totalsSentence } from './training.ts';
import { climbIn, distanceIn, metersOf, type UnitSystem } from './units.ts';
import { analysisSection } from './workout-analysis.ts';

/** What the pages are drawn from: the typed results of src/operations/pages.graphql. */
export type { PageEntry, PagePerson } from './entry-card.ts';
export type PageTrack = PageTrackFragment;
export type PagePersonDetail = NonNullable<PagePersonDetailQuery['person']>;
type EntryDetail = NonNullable<PageEntryDetailQuery['entry']>;
type RouteDetail = NonNullable<PageRouteQuery['route']>;

export const PAGE_STYLE = raw(`
  fieldset.defaults label { display: inline-block; margin: 0 1rem .35rem 0; font-weight: normal; }
  .entry { display: grid; grid-template-columns: 48px 1fr; gap: .25rem .75rem; }
  .entry img.avatar, .person img.avatar { width: 48px; height: 48px; border-radius: 50%; }
  .entry .meta { color: #4a5568; font-size: .9rem; }
  .entry .body { grid-column: 2; }
  .workout { font-weight: 600; }
  ul.plain { list-style: none; padding: 0; margin: 0; }
  ul.plain li { padding: .5rem 0; border-top: 1px solid #e2e6ea; }
  ul.people li { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; }
  ul.people li form.inline { margin-left: auto; }
  ul.people li form.inline button { margin-top: 0; }
  ul.notifications li { display: flex; align-items: flex-start; gap: .5rem; padding: .4rem 0; border-bottom: 1px solid #e3e7ec; }
  ul.notifications li.unread a { font-weight: 600; }
  ul.notifications p { margin: 0; }
  ul.notifications blockquote.said { margin: .25rem 0; padding-left: .6rem; border-left: 3px solid #c5ccd6; color: #333c48; }
  ul.notifications .actions button { margin-top: .35rem; }
  label.check { font-weight: 400; }
  ul.people img { width: 32px; height: 32px; border-radius: 50%; }
  svg.drawing { width: 100%; height: auto; display: block; }
  figure { margin: 1rem 0; }
  figcaption { color: #4a5568; font-size: .9rem; }
  nav.pages { display: flex; justify-content: space-between; margin: 1rem 0; }
  nav.filters { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0; }
  nav.filters a[aria-current] { font-weight: 700; text-decoration: none; color: #1d2430; }
  .scroll { overflow-x: auto; }
  .scroll table { font-size: .9rem; } .scroll th[scope=row] { white-space: nowrap; }
  caption { text-align: left; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
  .entry h2 { margin: 0; font-size: 1.1rem; }
  main { max-width: 42rem; }
  .badge { background: #eef3ee; border-radius: 4px; padding: 0 .35rem; }
  a.photo { display: block; margin: .5rem 0; }
  a.photo img { width: 100%; height: auto; border-radius: 6px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 0 .75rem; }
  .help { color: #4a5568; font-size: .9rem; margin: .25rem 0 0; }
  form.inline, .inline { display: inline-flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
  form.inline button, .actions button { margin-top: .5rem; }
  fieldset.choice { border: 0; padding: 0; margin: .5rem 0 0; display: flex; gap: 1rem; }
  fieldset.choice label { font-weight: 400; margin: 0; }
  select, input[type=number], input[type=file], input[type=datetime-local] { font: inherit; padding: .4rem; max-width: 100%; }
  details { margin-top: .75rem; } summary { cursor: pointer; font-weight: 600; }
  form.danger { border-top: 1px solid #e2e6ea; margin-top: 1rem; padding-top: .5rem; }
  form.danger label { font-weight: 400; }
  .notice { border-left: 4px solid #1f6f50; }
  table.totals { font-size: .85rem; } table.totals td, table.totals th { padding-right: .35rem; white-space: nowrap; }
  @media (max-width: 30rem) { main { padding: 0 .5rem; } .card { padding: .75rem; } }
  table.records { margin-bottom: .75rem; } table.records caption { font-weight: 600; text-align: left; }
  .find label { margin-top: 0; }
  .entry a.thumb { float: right; width: 9rem; margin: 0 0 .5rem .75rem; }
  .entry a.thumb svg { border-radius: 6px; }
  form.compose .workout-fields { display: none; }
  form.compose:has(#compose-kind-workout:checked) .workout-fields { display: block; }
  form.compose .send { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
  form.compose .send label, form.compose .send button { margin: 0; }
  form.compose details.attach { margin-top: .5rem; }
  .map-box { height: 20rem; border-radius: 6px; margin-bottom: .5rem; }
  .map-box .leaflet-control-attribution a { text-decoration: underline; }
`);

/** Who is looking (their name and the log-out button in the header), when they are logged in, and the units they read in. */
export interface Visitor {
  viewer: PageViewer | null;
  csrf: string;
  units: UnitSystem;
  /** The tiles maps are drawn on. */
  tiles: { url: string; attribution: string };
}

/** The head of a page with maps: Leaflet and our script, served here, and the maps' data as a JSON block. */
function mapHead(visitor: Visitor, maps: Record<string, MapSpec>): Markup | null {
  if (Object.keys(maps).length === 0) return null;
  const data: MapData = { tiles: visitor.tiles.url, attribution: visitor.tiles.attribution, maps };
  // `<` escaped, so that nothing in the data can end the block
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return html`<link rel="stylesheet" href="${MAP_ASSETS.style}"><script src="${MAP_ASSETS.leaflet}" defer></script><script src="${MAP_ASSETS.script}" defer></script>
<script type="application/json" id="map-data">${raw(json)}</script>`;
}

/** What a page adds to its head: maps to draw, and the entry page's script. */
interface PageParts {
  maps?: Record<string, MapSpec>;
  entryScript?: boolean;
}

function page(visitor: Visitor, title: string, body: Markup, status?: Markup | null, parts: PageParts = {}): Markup {
  const script = parts.entryScript
    ? html`<script src="${ENTRY_ASSETS.sse}" defer></script><script src="${ENTRY_ASSETS.script}" defer></script>`
    : null;
  return layout(
    title,
    html`${status}${body}`,
    visitor.viewer,
    visitor.csrf,
    PAGE_STYLE,
    html`<script src="${PAGE_ASSETS.script}" defer></script>${mapHead(visitor, parts.maps ?? {})}${script}`,
    { search: true },
  );
}

/** A page in the frame and style of these pages. */
export const layoutPage = page;

/** A one-line outcome of the last form, announced. */
export function notice(text: string | null): Markup | null {
  return text ? html`<p class="card notice" role="status">${text}</p>` : null;
}

const REASONS: Record<string, (mutual: number) => string> = {
  FRIEND_OF_FRIEND: (mutual) => `${plural(mutual, 'friend')} in common`,
  COMMENTS_ON_YOURS: () => 'commented on your entries',
  ACTIVE_NEARBY: () => 'active near you',
  ACTIVE_LATELY: () => 'posting often lately',
};

/** People the athlete may know, each with why and a button to ask (back to the home page). */
export function suggestionsCard(
  csrf: string,
  suggestions: ReadonlyArray<{ person: PagePerson; mutualFriends: number; reasons: readonly string[] }>,
): Markup {
  return html`<section class="card" aria-labelledby="suggestions-heading"><h2 id="suggestions-heading">People you may know</h2>
<ul class="plain people">${suggestions.map(
    ({ person, mutualFriends, reasons }) => html`<li>${avatar(person, '')}${personLink(person)}
  <span class="meta">· ${reasons.map((reason) => REASONS[reason]?.(mutualFriends) ?? lower(reason)).join(', ')}</span>
  <form method="post" action="/people/${encodeURIComponent(person.username)}/friendship" class="inline">${hidden('csrf', csrf)}${hidden('action', 'request')}${hidden('back', '/')}<button type="submit" class="secondary" aria-label="Ask to be friends with ${person.displayName}">Ask to be friends</button></form></li>`,
  )}</ul></section>`;
}

export function feedPage(
  visitor: Visitor,
  feed: { entries: PageEntry[]; page: number; hasNext: boolean },
  compose: Markup | null,
  status?: Markup | null,
  suggestions?: Markup | null,
): Markup {
  const list = feed.entries.length
    ? feed.entries.map((entry) => entryCard(entry, { link: true, units: visitor.units }))
    : html`<p class="card">Nothing posted yet.</p>`;
  return page(
    visitor,
    'Latest from everyone',
    html`${compose}<p><a href="/nearby">Entries near a place</a></p>${suggestions}${list}${pager('/', feed.page, feed.hasNext)}`,
    status,
  );
}

/** A track's lines as a map draws them: [lat, lon] pairs, one list per segment. */
function linesOf(track: PageTrack): MapSpec['lines'] {
  const lines: MapSpec['lines'] = [];
  let segment: number | null = null;
  for (const point of track.outline) {
    if (point.segment !== segment) {
      lines.push([]);
      segment = point.segment;
    }
    lines.at(-1)!.push([point.lat, point.lon]);
  }
  return lines;
}

type Zones = ReadonlyArray<{ lat: number; lon: number; radiusMeters: number }> | null | undefined;

/**
 * A track's figures: its map (drawn on tiles with script, as SVG without), with the owner's privacy zones
 * when the owner is looking, and its elevation profile.
 */
function trackFigures(track: PageTrack, title: string, units: UnitSystem, ownZones: Zones): { markup: Markup; map: MapSpec } | null {
  if (track.outline.length === 0) return null;
  const map = trackMapSvg(track.outline, { title: `Map of ${title}` });
  const profile = elevationProfileSvg(track.outline, { title: `Elevation of ${title}`, units });
  const spec: MapSpec = {
    title: `Map of ${title}`,
    lines: linesOf(track),
    ...(ownZones?.length ? { zones: ownZones.map((zone) => [zone.lat, zone.lon, zone.radiusMeters] as [number, number, number]) } : {}),
  };
  const markup = html`<section class="card" aria-labelledby="track-heading"><h2 id="track-heading">Track</h2>
  <p>${distanceIn(track.distanceMeters, units)} · ${climbIn(track.elevationGain, units)} climbed · ${track.pointCount} points</p>
  <figure data-map="track">${map}<figcaption>The path, north up; green marks the start, red the finish${ownZones?.length ? '; your privacy zones in red circles, which nobody else sees' : ''}.</figcaption></figure>
  ${profile && html`<figure>${profile}<figcaption>Elevation along the way.</figcaption></figure>`}
</section>`;
  return { markup, map: spec };
}

/** Likes and replies from the fediverse, with their remote authors (only when there are some). */
function fediverseReactions(reactions: EntryDetail['fediverseReactions']): Markup | null {
  if (reactions.length === 0) return null;
  const who = (account: EntryDetail['fediverseReactions'][number]['account']) =>
    account.url ? html`<a href="${account.url}" rel="nofollow ugc">@${account.handle}</a>` : html`@${account.handle}`;
  const liked = reactions.filter((reaction) => reaction.kind === 'LIKE');
  const replies = reactions.filter((reaction) => reaction.kind === 'REPLY');
  return html`<section class="card" aria-labelledby="fediverse-heading"><h2 id="fediverse-heading">From the fediverse</h2>
${replies.length > 0 && html`<h3>Replies</h3><ul class="plain">${replies.map((reply) => html`<li>${who(reply.account)} · ${time(reply.at)}<p>${reply.text}</p></li>`)}</ul>`}
${liked.length > 0 && html`<h3>Liked by</h3><ul class="plain">${liked.map((like) => html`<li>${who(like.account)}</li>`)}</ul>`}</section>`;
}

export function entryPage(
  visitor: Visitor,
  entry: EntryDetail,
  form: { comment?: string; issues?: FieldIssue[]; status?: Markup | null; ownZones?: Zones; gear?: readonly GearChoice[] } = {},
): Markup {
  const viewerName = visitor.viewer?.username;
  // a comment's author may delete it, and so may the entry's
  const removable = (author: string) => viewerName !== undefined && (author === viewerName || entry.author.username === viewerName);
  // the newest comments; a link reads the ones before them, and one back to the newest from there
  const { pageInfo } = entry.comments;
  const older =
    pageInfo.hasPreviousPage && pageInfo.startCursor
      ? html`<p><a href="/entries/${entry.id}?comments_before=${encodeURIComponent(pageInfo.startCursor)}#comments-heading">Older comments</a></p>`
      : null;
  const newer = pageInfo.hasNextPage ? html`<p><a href="/entries/${entry.id}#comments-heading">Newest comments</a></p>` : null;
  const shownLikes = entry.likes.edges.length;
  const moreLikes = entry.likeCount > shownLikes ? html`<p>The latest ${shownLikes} of ${plural(entry.likeCount, 'like')}.</p>` : null;
  const comments = entry.comments.edges.length
    ? html`${older}<ul class="plain">${entry.comments.edges.map(
        ({ node: c }) =>
          html`<li id="comment-${c.id}">${personLink(c.author)} · ${time(c.createdAt)}<p>${withMentions(c.body)}</p>${c.author.username === viewerName && editCommentForm(visitor.csrf, entry.id, c)}${removable(c.author.username) && deleteCommentForm(visitor.csrf, entry.id, c.id)}${viewerName !== undefined && c.author.username !== viewerName && reportForm(visitor.csrf, entry.id, { commentId: c.id })}</li>`,
      )}</ul>${newer}`
    : html`<p>No comments yet.</p>`;
  const likes = entry.likes.edges.length
    ? html`<ul class="plain people">${entry.likes.edges.map(({ node: l }) => html`<li>${avatar(l.person, '')}${personLink(l.person)}</li>`)}</ul>${moreLikes}`
    : html`<p>No likes yet.</p>`;
  const viewer = visitor.viewer;
  const actions = viewer
    ? entryActions(visitor.csrf, entry, {
        liked: entry.viewerHasLiked,
        own: entry.author.username === viewer.username,
        gear: form.gear,
        comment: form.comment,
        issues: form.issues,
      })
    : html`<p class="card"><a href="/login?next=${encodeURIComponent(`/entries/${entry.id}`)}">Log in</a> to like or comment.</p>`;
  const own = viewer?.username === entry.author.username;
  const figures =
    entry.track &&
    trackFigures(
      entry.track,
      `this ${entry.workout ? lower(entry.workout.activityType) : 'entry'}`,
      visitor.units,
      own ? form.ownZones : null,
    );
  return page(
    visitor,
    entryTitle(entry, visitor.units),
    // the parts marked data-live are replaced in place by the page's script (web/entry-script.ts)
    html`<div data-entry="${entry.id}"><div data-live="card">${entryCard(entry, { link: false, units: visitor.units })}</div>
${gearLine(entry.workout?.gear)}${figures?.markup}
${entry.track && analysisSection(entry.track, entry.workout?.activityType ?? null, visitor.units)}
${entry.geo && html`<p><a href="/nearby?lat=${entry.geo.latitude}&lon=${entry.geo.longitude}">More entries near here</a></p>`}
${actions}
<section class="card" aria-labelledby="comments-heading" data-live="comments"><h2 id="comments-heading" tabindex="-1">Comments</h2>${comments}</section>
<section class="card" aria-labelledby="likes-heading" data-live="likes"><h2 id="likes-heading">Likes</h2>${likes}</section>
${fediverseReactions(entry.fediverseReactions)}
<p id="live-status" class="visually-hidden" role="status"></p></div>`,
    form.status,
    { maps: figures ? { track: figures.map } : {}, entryScript: true },
  );
}

export function personPage(
  visitor: Visitor,
  person: PagePersonDetail,
  feed: { entries: PageEntry[]; page: number; hasNext: boolean },
  status?: Markup | null,
): Markup {
  const about = html`${person.location && html`<p>${person.location}</p>`}${person.goal && html`<p>Goal: ${person.goal}</p>`}${
    person.fediverseHandle &&
    html`<p>In the fediverse: <strong class="handle">@${person.fediverseHandle}</strong> (follow from Mastodon and the like)</p>`
  }`;
  const friends = person.friends.edges.length
    ? html`<ul class="plain people">${person.friends.edges.map(({ node: f }) => html`<li>${avatar(f, '')}${personLink(f)}</li>`)}</ul>`
    : html`<p>No friends yet.</p>`;
  const routes = person.routes.edges.length
    ? html`<ul class="plain">${person.routes.edges.map(
        ({ node: r }) =>
          html`<li><a href="/routes/${r.id}">${r.name ?? `Route ${r.id}`}</a>${r.activityType && ` · ${lower(r.activityType)}`}${r.distance && ` · ${distanceIn(metersOf(r.distance), visitor.units)}`}</li>`,
      )}</ul>`
    : html`<p>No routes yet.</p>`;
  // someone the viewer blocked: no friendship to offer, and their entries are hidden, not missing
  const blocked = person.blockedByViewer === true;
  const stream = feed.entries.length
    ? feed.entries.map((entry) => entryCard(entry, { link: true, units: visitor.units }))
    : blocked
      ? html`<p class="card">You blocked ${person.displayName}: their entries are hidden from you, and yours from them. Unblock them below to see them again.</p>`
      : html`<p class="card">No entries yet.</p>`;
  const own = visitor.viewer?.username === person.username;
  return page(
    visitor,
    person.displayName,
    html`<section class="card person"><p>${avatar(person)} @${person.username}</p>${about}${own && html`<p><a href="/settings">Edit your profile and privacy</a></p>`}</section>
${blocked ? null : friendshipForm(visitor.csrf, person.username, person.viewerFriendship ?? null)}${
  visitor.viewer && visitor.viewer.username !== person.username && person.blockedByViewer !== null && person.blockedByViewer !== undefined
    ? safetyForm(visitor.csrf, person, { blocked: person.blockedByViewer, muted: person.mutedByViewer ?? false })
    : null
}
<section aria-labelledby="entries-heading"><h2 id="entries-heading">Entries</h2>${stream}${pager(`/people/${encodeURIComponent(person.username)}`, feed.page, feed.hasNext)}</section>
${trainingSection(person, visitor.units)}
<section class="card" aria-labelledby="friends-heading"><h2 id="friends-heading">Friends</h2>${friends}</section>
<section class="card" aria-labelledby="routes-heading"><h2 id="routes-heading">Routes</h2>${routes}</section>
${gearSection(person.gear, visitor.units)}`,
    status,
  );
}

const statsPath = (username: string) => `/people/${encodeURIComponent(username)}/stats`;

/** A year of weekly distance, the records and the streak: what the person lets everyone see. */
function trainingSection(person: PagePersonDetail, units: UnitSystem): Markup | null {
  if (!person.records || !person.streak || person.weekly?.__typename !== 'TrainingStats') return null;
  const weeks = 'periods' in person.weekly ? person.weekly.periods : [];
  return html`<section class="card" aria-labelledby="training-heading"><h2 id="training-heading">Training</h2>
<figure>${distanceChartSvg(weeks, { id: 'weekly', title: 'Distance per week over the last year', units })}<figcaption>Distance per week over the last year.</figcaption></figure>
${streakText(person.streak)}
${recordsTable(person.records, units)}
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
    const units = visitor.units;
    // a period without a workout says nothing a row should: the chart shows the gaps
    const active = [...stats.periods].reverse().filter((period) => period.workouts > 0);
    const rows = active.map((period) => html`<tr><th scope="row">${period.firstDay}</th>${totalsCells(period, units)}</tr>`);
    const empty = stats.periods.length - active.length;
    body = html`<section class="card" aria-labelledby="chart-heading"><h2 id="chart-heading">Distance: ${what}</h2>
<p>${totalsSentence(stats.total, units)}</p>
<figure>${distanceChartSvg(stats.periods, { id: 'stats', title: `Distance, ${what}`, units })}<figcaption>Days are in ${stats.timeZone}.</figcaption></figure>
<div class="scroll" tabindex="0" role="region" aria-label="Totals by period"><table class="totals"><caption class="meta">Newest first${empty ? `; ${plural(empty, filter.period.toLowerCase())} without a workout left out` : ''}; moving time as h:mm:ss</caption>
<thead><tr><th scope="col">From</th><th scope="col"><abbr title="Workouts">Count</abbr></th><th scope="col">Distance</th><th scope="col"><abbr title="Moving time">Time</abbr></th><th scope="col">Climb</th></tr></thead>
<tbody>${rows}</tbody><tfoot><tr><th scope="row">Total</th>${totalsCells(stats.total, units)}</tr></tfoot></table></div></section>`;
  }
  const training =
    person.records && person.streak
      ? html`<section class="card" aria-labelledby="records-heading"><h2 id="records-heading">Records and streak</h2>${streakText(person.streak)}${recordsTable(person.records, visitor.units)}</section>`
      : null;
  return page(
    visitor,
    `${person.displayName}: stats`,
    html`<p><a href="${person.url}">Back to ${person.displayName}</a></p>${filters}${body}${training}`,
  );
}

/** A piece of gear's page (web/gear-pages.ts), under its name. */
export function gearPage(
  visitor: Visitor,
  gear: GearDetail,
  feed: { entries: PageEntry[]; page: number; hasNext: boolean },
  issues?: FieldIssue[],
  status?: Markup | null,
): Markup {
  // whoever may see gear sees a workout done in it, by its owner, or is its owner (who alone is told its defaults)
  const owner = feed.entries[0]?.author ?? null;
  return page(visitor, gear.name, gearPageBody(visitor.csrf, gear, owner, feed, visitor.units, issues), status);
}

export function routePage(visitor: Visitor, route: RouteDetail, ownZones?: Zones): Markup {
  const title = route.name ?? `Route ${route.id}`;
  const facts = [
    route.activityType ? lower(route.activityType) : null,
    route.distance ? distanceIn(metersOf(route.distance), visitor.units) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const figures =
    route.track && trackFigures(route.track, title, visitor.units, visitor.viewer?.username === route.owner.username ? ownZones : null);
  return page(
    visitor,
    title,
    html`<section class="card"><p>A route by ${personLink(route.owner)}${facts ? ` · ${facts}` : ''}</p>
<p><a href="/routes/${route.id}.gpx" download>Download the GPX</a></p></section>
${figures ? figures.markup : html`<p class="card">No track has been uploaded for this route yet.</p>`}`,
    null,
    { maps: figures ? { track: figures.map } : {} },
  );
}

/** Where the nearby page looks: a point and a radius in the reader's units. */
export interface NearbyQuery {
  lat: number;
  lon: number;
  radius: number;
}

/** Recent entries near a point: a form to choose it, a map of where they were posted, and their cards. */
export function nearbyPage(
  visitor: Visitor,
  query: NearbyQuery | null,
  feed: { entries: PageEntry[]; page: number; hasNext: boolean } | null,
  issues?: FieldIssue[],
): Markup {
  const unit = visitor.units === 'MILES' ? 'mi' : 'km';
  const form = html`<section class="card" aria-labelledby="nearby-heading"><h2 id="nearby-heading">Where</h2>${issuesBlock(issues)}
<form method="get" action="/nearby"><div class="grid">
  <div><label for="near-lat">Latitude</label><input type="text" inputmode="decimal" id="near-lat" name="lat" required value="${query?.lat ?? ''}"></div>
  <div><label for="near-lon">Longitude</label><input type="text" inputmode="decimal" id="near-lon" name="lon" required value="${query?.lon ?? ''}"></div>
  <div><label for="near-radius">Within (${unit})</label><input type="number" id="near-radius" name="radius" min="1" max="500" value="${query?.radius ?? 25}"></div>
</div><button type="submit">Show</button></form></section>`;
  if (!query || !feed) return page(visitor, 'Entries near a place', form);
  const placed = feed.entries.filter((entry) => entry.geo);
  const spec: MapSpec = {
    title: `Where the entries near ${query.lat}, ${query.lon} were posted`,
    lines: [],
    points: placed.map((entry) => [entry.geo!.latitude, entry.geo!.longitude, entryTitle(entry, visitor.units), entry.url]),
  };
  const list = feed.entries.length
    ? feed.entries.map((entry) => entryCard(entry, { link: true, units: visitor.units }))
    : html`<p class="card">Nothing was posted within ${query.radius} ${unit} of there.</p>`;
  const base = `/nearby?lat=${query.lat}&lon=${query.lon}&radius=${query.radius}`;
  const pages = html`<nav class="pages" aria-label="Pages">${feed.page > 1 ? html`<a href="${base}&page=${feed.page - 1}" rel="prev">Newer entries</a>` : html`<span></span>`}${feed.hasNext && html`<a href="${base}&page=${feed.page + 1}" rel="next">Older entries</a>`}</nav>`;
  const map = placed.length
    ? html`<section class="card" aria-labelledby="map-heading"><h2 id="map-heading">Map</h2><figure data-map="nearby"><figcaption>${placed.length} of these entries have a place they may show.<noscript> The map needs script.</noscript></figcaption></figure></section>`
    : null;
  return page(visitor, 'Entries near a place', html`${form}${map}${list}${pages}`, null, { maps: placed.length ? { nearby: spec } : {} });
}

export function notFoundPage(visitor: Visitor, what: string, path?: string): Markup {
  // to someone logged out, an entry kept to friends looks missing (as it must): say that logging in may show it
  const logIn =
    path && !visitor.viewer
      ? html`<p class="card">Some entries are shown only to their author’s friends. <a href="/login?next=${encodeURIComponent(path)}">Log in</a> to see it if it was shared with you.</p>`
      : null;
  return page(
    visitor,
    'Not found',
    html`<p class="card">${what} does not exist, or you may not see it, or it was deleted.</p>${logIn}<p><a href="/">Back to the latest entries</a></p>`,
  );
}

/** What a search found: people first (the first ten), then entries, newest first, paged. */
export function searchPage(
  visitor: Visitor,
  query: string,
  found: { people: PagePerson[]; peopleCount: number; feed: { entries: PageEntry[]; page: number; hasNext: boolean } } | null,
  issues?: FieldIssue[],
): Markup {
  const form = html`<div class="card">${issuesBlock(issues)}${searchForm(query)}</div>`;
  if (!found) return page(visitor, 'Search', form);
  const { people, peopleCount, feed } = found;
  const more =
    peopleCount > people.length
      ? html`<p class="meta">The first ${people.length} of ${plural(peopleCount, 'person')}; add a word to narrow them.</p>`
      : null;
  const peopleList = people.length
    ? html`<ul class="plain people">${people.map((person) => html`<li>${avatar(person, '')}${personLink(person)}</li>`)}</ul>${more}`
    : html`<p>Nobody by that name.</p>`;
  const entries = feed.entries.length
    ? feed.entries.map((entry) => entryCard(entry, { link: true, units: visitor.units }))
    : html`<p class="card">No entry you may see holds these words.</p>`;
  return page(
    visitor,
    `Search: ${query}`,
    html`${form}<section class="card" aria-labelledby="people-heading"><h2 id="people-heading">People</h2>${peopleList}</section>
<section aria-labelledby="entries-heading"><h2 id="entries-heading">Entries</h2>${entries}</section>${pager(`/search?q=${encodeURIComponent(query)}`, feed.page, feed.hasNext)}`,
  );
}

const KIND_LABELS: Record<string, string> = {
  COMMENT: 'Comments on your entries',
  REPLY: 'Comments after yours',
  LIKE: 'Likes of your entries',
  FRIEND_REQUEST: 'Friend requests',
  FRIEND_ACCEPTED: 'Accepted friend requests',
  MENTION: 'Mentions of you',
};

type PageNotification = {
  id: string;
  kind: string;
  read: boolean;
  at: string;
  text: string;
  said?: string | null;
  actor: PagePerson & { viewerFriendship?: string | null };
  entry: { url: string; message?: string | null; workout?: { activityType: string; title?: string | null } | null } | null;
};

/** Which entry a notification is about, in a few words: its title, else its activity, else its note's start. */
function entryNamed(entry: NonNullable<PageNotification['entry']>): string {
  if (entry.workout?.title) return entry.workout.title;
  const words = firstWords(entry.message ?? '', 50);
  if (words) return words;
  return entry.workout ? `your ${lower(entry.workout.activityType)}` : 'your note';
}

/** One notification: who, what, on which entry, what they said; a friend request still open answers here. */
function notificationItem(csrf: string, n: PageNotification): Markup {
  const answer =
    n.kind === 'FRIEND_REQUEST' && n.actor.viewerFriendship === 'INCOMING'
      ? html`<div class="actions">${['accept', 'decline'].map(
          (action) =>
            html`<form method="post" action="/people/${encodeURIComponent(n.actor.username)}/friendship">${hidden('csrf', csrf)}${hidden('action', action)}${hidden('back', '/notifications')}<button type="submit"${action === 'decline' ? html` class="secondary"` : null} aria-label="${action === 'accept' ? 'Accept' : 'Decline'} ${n.actor.displayName}'s friend request">${action === 'accept' ? 'Accept' : 'Decline'}</button></form>`,
        )}</div>`
      : null;
  return html`<li class="${n.read ? 'read' : 'unread'}">${avatar(n.actor, '')}<div>${n.read ? null : html`<span class="badge">New</span> `}<a href="${n.entry?.url ?? n.actor.url}">${n.text}</a>${n.entry && html` · <span class="about">${entryNamed(n.entry)}</span>`}
  ${n.said ? html`<blockquote class="said">${n.said}</blockquote>` : null}
  <p class="meta">${time(n.at)}</p>${answer}</div></li>`;
}

/** The athlete's notifications, newest first (new ones marked), with a button to mark all read, and the kinds they hear of. */
/** Where notifications are mailed, as the notifications page says it. */
type PageEmail = { address: string | null; verified: boolean; frequency: string; available: boolean } | null | undefined;

function mailLine(email: PageEmail): Markup | null {
  if (!email?.available) return null;
  if (!email.address || !email.verified)
    return html`<p class="help">To have them mailed too, give your address in <a href="/settings#email">your settings</a>.</p>`;
  if (email.frequency === 'OFF') return html`<p class="help">Mail is off: <a href="/settings#email">choose in your settings</a>.</p>`;
  return html`<p class="help">Those ticked “Mail” go to ${email.address}, ${email.frequency === 'DAILY' ? 'in a daily digest' : 'as they come'} (<a href="/settings#email">change</a>).</p>`;
}

export function notificationsPage(
  visitor: Visitor,
  notifications: readonly PageNotification[],
  preferences: ReadonlyArray<{ kind: string; inApp: boolean; email: boolean }>,
  status?: Markup | null,
  email?: PageEmail,
): Markup {
  const unread = notifications.filter((n) => !n.read).length;
  const list = notifications.length
    ? html`<ul class="plain notifications">${notifications.map((n) => notificationItem(visitor.csrf, n))}</ul>`
    : html`<p>Nothing yet: comments, likes, friend requests and mentions of you will show here.</p>`;
  const markAll = unread
    ? html`<form method="post" action="/notifications/read">${hidden('csrf', visitor.csrf)}<button type="submit" class="secondary">Mark all ${unread} read</button></form>`
    : null;
  const mailed = email?.available ?? false;
  const choices = html`<section class="card" aria-labelledby="kinds-heading"><h2 id="kinds-heading">What you hear of</h2>${mailLine(email)}
<form method="post" action="/notifications/preferences">${hidden('csrf', visitor.csrf)}${mailed ? hidden('mail_shown', 'yes') : null}
  <table class="kinds"><thead><tr><th scope="col">Kind</th><th scope="col">In the app</th>${mailed ? html`<th scope="col">Mail</th>` : null}</tr></thead><tbody>
  ${preferences.map((p) => {
    const label = KIND_LABELS[p.kind] ?? lower(p.kind);
    return html`<tr><th scope="row">${label}</th><td><input type="checkbox" name="on_${p.kind}" value="yes" aria-label="${label}: in the app"${p.inApp ? html` checked` : null}></td>${
      mailed
        ? html`<td><input type="checkbox" name="mail_${p.kind}" value="yes" aria-label="${label}: by mail"${p.email ? html` checked` : null}></td>`
        : null
    }</tr>`;
  })}
  </tbody></table>
  <button type="submit">Save</button></form></section>`;
  return page(
    visitor,
    'Notifications',
    html`<section class="card" aria-labelledby="list-heading"><h2 id="list-heading" class="visually-hidden">Latest</h2>${markAll}${list}</section>${choices}`,
    status,
  );
}

type PageReport = {
  databaseId: number;
  kind: string;
  excerpt: string;
  reason: string;
  createdAt: string;
  entryId: string | null;
  filedBy: PagePerson;
  author: PagePerson | null;
};

/** The moderators' queue: the open reports, oldest first, each with what to do about it. */
export function moderationPage(visitor: Visitor, reports: readonly PageReport[], total: number, status?: Markup | null): Markup {
  const act = (report: PageReport, action: string, label: string, kind: string) =>
    html`<form method="post" action="/moderation/${report.databaseId}">${hidden('csrf', visitor.csrf)}${hidden('action', action)}<button type="submit" class="${kind}">${label}</button></form>`;
  const list = reports.length
    ? html`<ul class="plain">${reports.map(
        (r) => html`<li class="card"><p class="meta">${
          r.kind === 'person'
            ? html`A person: ${r.author ? personLink(r.author) : 'someone since deleted'}`
            : html`${r.kind === 'entry' ? 'An entry' : 'A comment'} by ${r.author ? personLink(r.author) : 'someone since deleted'}`
        } · reported by ${personLink(r.filedBy)} · ${time(r.createdAt)}</p>
  <blockquote>${r.excerpt || '(no text)'}</blockquote><p>Reason: ${r.reason}</p>${r.entryId ? html`<p><a href="/entries/${decodeGlobalID(r.entryId).id}">Open the entry</a></p>` : null}
  <div class="actions">${r.kind === 'person' ? null : act(r, 'HIDE', r.kind === 'entry' ? 'Hide the entry' : 'Remove the comment', 'danger')}${r.author ? act(r, 'SUSPEND', r.kind === 'person' ? 'Suspend them' : 'Suspend the author', 'danger') : null}${act(r, 'DISMISS', 'Dismiss', 'secondary')}</div></li>`,
      )}</ul>`
    : html`<p class="card">No open reports.</p>`;
  const shown = total > reports.length ? html` The oldest ${reports.length} are here; each one closed brings the next.` : null;
  return page(visitor, 'Reports to moderate', html`<p>${plural(total, 'open report')}, oldest first.${shown}</p>${list}`, status);
}

type FediversePost = PageFediverseStreamQuery['fediverseStream'][number];

/** The athlete's fediverse stream: posts of the remote accounts they follow, as plain text, each linking home. */
export function fediverseStreamPage(visitor: Visitor, posts: readonly FediversePost[]): Markup {
  const list = posts.length
    ? html`<ul class="plain">${posts.map(
        (post) =>
          html`<li class="card"><p>${post.account.name && html`${post.account.name} `}<a href="${post.account.url ?? post.account.handle}" rel="nofollow ugc">@${post.account.handle}</a> · ${post.url ? html`<a href="${post.url}" rel="nofollow ugc">${time(post.publishedAt)}</a>` : time(post.publishedAt)}</p><p class="remote-text">${post.text}</p></li>`,
      )}</ul>`
    : html`<p class="card">Nothing yet: follow accounts from your <a href="/settings#fediverse">settings</a>, and their posts come here.</p>`;
  return page(visitor, 'Your fediverse stream', list);
}
