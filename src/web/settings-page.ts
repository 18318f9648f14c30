// The athlete's settings page: their profile, who sees what by default, the privacy of their tracks
// (hidden ends and privacy zones), and the friend requests waiting for them. Pure: markup out.
import type { FieldIssue } from '../domain/errors.ts';
import { MAX_HIDDEN_ENDS_METERS, MAX_ZONE_RADIUS_METERS, MIN_ZONE_RADIUS_METERS } from '../domain/privacy-zones.ts';
import { THRESHOLD_BOUNDS } from '../domain/social.ts';
import { html, type Markup } from '../http/html.ts';
import type { PageViewerSettingsQuery } from '../operations/generated.ts';
import { hidden, issuesBlock } from '../pages/layout.ts';
import type { MapSpec } from './assets.ts';
import { avatar, personLink, visibilityName } from './entry-card.ts';
import { VISIBILITIES } from './forms.ts';
import { gearSettingsCard } from './gear-pages.ts';
import { layoutPage, notice, type Visitor } from './pages.ts';

export type Settings = NonNullable<PageViewerSettingsQuery['me']>;

const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const capital = (text: string) => text.charAt(0) + text.slice(1).toLowerCase();

function select(id: string, name: string, values: ReadonlyArray<readonly [string, string]>, chosen: string | null | undefined): Markup {
  return html`<select id="${id}" name="${name}">${values.map(([value, label]) =>
    value === chosen ? html`<option value="${value}" selected>${label}</option>` : html`<option value="${value}">${label}</option>`,
  )}</select>`;
}

/**
 * The avatar: a picture to upload, or the address of one; the one in use is shown. The address field
 * holds only an address the athlete gave (emptied, it goes back to the initials); an uploaded picture
 * stays until another replaces it or the box for the initials is ticked.
 */
function avatarFields(me: Settings): Markup {
  const generated = me.photoUrl.endsWith(`/people/${encodeURIComponent(me.username)}/avatar.svg`);
  const uploaded = new URL(me.photoUrl).pathname.startsWith('/media/');
  const named = generated || uploaded ? '' : me.photoUrl;
  return html`<fieldset class="avatar"><legend>Avatar</legend>
    <p><img class="avatar" src="${me.photoUrl}" alt="Your avatar now" width="48" height="48"> ${generated ? 'Made of your initials.' : uploaded ? 'A picture you uploaded.' : 'A picture at an address you gave.'}</p>
    <label for="photo">Upload a picture (JPEG, PNG, WebP or GIF, up to 10 MB)</label><input type="file" id="photo" name="photo" accept="image/jpeg,image/png,image/webp,image/gif">
    <label for="photo_url">Or the address of one (https)</label><input type="url" id="photo_url" name="photo_url" maxlength="2000" value="${named}">${hidden('photo_url_was', named)}
    ${generated ? null : html`<label><input type="checkbox" name="initials" value="yes"> Use my initials instead</label>`}
  </fieldset>`;
}

function profileForm(csrf: string, me: Settings, issues?: FieldIssue[]): Markup {
  const visibilities = VISIBILITIES.map((v) => [v, visibilityName(v)] as const);
  return html`<section class="card" aria-labelledby="profile-heading"><h2 id="profile-heading">Profile and privacy</h2>${issuesBlock(issues)}
<form method="post" action="/settings" enctype="multipart/form-data">${hidden('csrf', csrf)}
  <label for="display_name">Display name</label><input type="text" id="display_name" name="display_name" required maxlength="60" value="${me.displayName}">
  ${avatarFields(me)}
  <label for="location">Location</label><input type="text" id="location" name="location" maxlength="100" value="${me.location ?? ''}">
  <label for="time_zone">Time zone</label><input type="text" id="time_zone" name="time_zone" maxlength="100" value="${me.timeZone ?? ''}" aria-describedby="time_zone_help">
  <p class="help" id="time_zone_help">A name such as <code>Europe/London</code> or <code>Pacific Time (US &amp; Canada)</code>: your days and weeks in stats follow it.</p>
  <label for="units">Units</label>${select(
    'units',
    'units',
    [
      ['KILOMETERS', 'Kilometres and metres'],
      ['MILES', 'Miles and feet'],
    ],
    me.units,
  )}
  <label for="week_start">Weeks begin on</label>${select(
    'week_start',
    'week_start',
    WEEKDAYS.map((d) => [d, capital(d)] as const),
    me.weekStart,
  )}
  <label for="default_visibility">Who sees what you post, unless you choose otherwise</label>${select('default_visibility', 'default_visibility', visibilities, me.defaultVisibility)}
  <label for="stats_visibility">Who sees your stats, records and streak</label>${select('stats_visibility', 'stats_visibility', visibilities, me.statsVisibility)}
  <label for="hidden_ends">Hide the start and finish of your tracks (metres, up to ${MAX_HIDDEN_ENDS_METERS}; 0 to show them)</label>
  <input type="number" id="hidden_ends" name="hidden_ends_meters" min="0" max="${MAX_HIDDEN_ENDS_METERS}" step="50" value="${me.hiddenEndsMeters ?? 0}">
  <button type="submit">Save</button>
</form></section>`;
}

/** The thresholds a workout's heart-rate and power zones are made of (domain/zones.ts). */
function thresholdsCard(csrf: string, me: Settings, issues?: FieldIssue[]): Markup {
  const number = (id: string, label: string, value: number | null, [min, max]: readonly [number, number]) =>
    html`<label for="${id}">${label} (${min} to ${max})</label><input type="number" id="${id}" name="${id}" min="${min}" max="${max}" step="1" value="${value ?? ''}" aria-describedby="thresholds_help">`;
  return html`<section class="card" aria-labelledby="thresholds-heading"><h2 id="thresholds-heading">Training zones</h2>${issuesBlock(issues)}
<form method="post" action="/settings/thresholds">${hidden('csrf', csrf)}
  <p class="help" id="thresholds_help">Your workouts' time in heart-rate and power zones is made of these. Leave one empty to use what your watch wrote in each file, where it did. With a resting heart rate, heart-rate zones are of the reserve between the two.</p>
  ${number('max_heart_rate', 'Maximum heart rate, beats a minute', me.maxHeartRate ?? null, THRESHOLD_BOUNDS.maxHeartRate)}
  ${number('resting_heart_rate', 'Resting heart rate, beats a minute', me.restingHeartRate ?? null, THRESHOLD_BOUNDS.restingHeartRate)}
  ${number('threshold_power', 'Functional threshold power, watts', me.thresholdPower ?? null, THRESHOLD_BOUNDS.thresholdPower)}
  <button type="submit">Save training zones</button>
</form></section>`;
}

function zonesCard(csrf: string, me: Settings, issues?: FieldIssue[]): Markup {
  const zones = me.privacyZones ?? [];
  const list = zones.length
    ? html`<ul class="plain">${zones.map(
        (zone) => html`<li>Within ${Math.round(zone.radiusMeters)} m of ${zone.lat.toFixed(4)}, ${zone.lon.toFixed(4)}
          <form method="post" action="/settings/zones/${zone.id}/delete" class="inline">${hidden('csrf', csrf)}<button type="submit" class="secondary" aria-label="Remove the zone around ${zone.lat.toFixed(4)}, ${zone.lon.toFixed(4)}">Remove</button></form></li>`,
      )}</ul>`
    : html`<p>You hide no places yet.</p>`;
  return html`<section class="card" aria-labelledby="zones-heading"><h2 id="zones-heading">Privacy zones</h2>${issuesBlock(issues)}
<p>Nobody else sees where your entries were posted or where your tracks pass inside these circles (your home, your work).</p>${list}
<figure data-map="zones" hidden><figcaption>Your zones in red. Click the map to place a new one: its latitude and longitude are filled in below, and its circle follows the radius.</figcaption></figure>
<form method="post" action="/settings/zones">${hidden('csrf', csrf)}
  <div class="grid">
    <div><label for="zone_lat">Latitude</label><input type="text" inputmode="decimal" id="zone_lat" name="lat" required></div>
    <div><label for="zone_lon">Longitude</label><input type="text" inputmode="decimal" id="zone_lon" name="lon" required></div>
    <div><label for="zone_radius">Radius (metres)</label><input type="number" id="zone_radius" name="radius_meters" min="${MIN_ZONE_RADIUS_METERS}" max="${MAX_ZONE_RADIUS_METERS}" step="50" value="500" required></div>
  </div>
  <div class="actions"><button type="button" class="secondary" id="zone-here" hidden>Use my location</button><button type="submit">Add the zone</button></div>
  <p class="help" id="zone-here-status" aria-live="polite"></p>
</form></section>`;
}

/** The map of the zones card (drawn where script runs): the athlete's own zones, and a click to place a new one. */
function zonesMap(me: Settings): MapSpec {
  return {
    title: 'Map of your privacy zones',
    lines: [],
    zones: (me.privacyZones ?? []).map((zone) => [zone.lat, zone.lon, zone.radiusMeters] as [number, number, number]),
    pick: { lat: 'zone_lat', lon: 'zone_lon', radius: 'zone_radius' },
  };
}

function requestsCard(csrf: string, me: Settings): Markup | null {
  const waiting = me.friendRequests?.edges ?? [];
  if (waiting.length === 0) return null;
  return html`<section class="card" aria-labelledby="requests-heading"><h2 id="requests-heading">Friend requests</h2><ul class="plain people">${waiting.map(
    ({ node }) => html`<li>${avatar(node, '')}${personLink(node)}
      <form method="post" action="/people/${encodeURIComponent(node.username)}/friendship" class="inline">${hidden('csrf', csrf)}${hidden('back', '/settings')}
      <button type="submit" name="action" value="accept">Accept</button> <button type="submit" name="action" value="decline" class="secondary">Decline</button></form></li>`,
  )}</ul></section>`;
}

type RemoteAccount = Settings['fediverseFollowing'] extends ReadonlyArray<infer R> | null | undefined ? R : never;

/** A remote account as a link to its profile on its own server. */
function remoteAccount(follow: RemoteAccount): Markup {
  const { account } = follow;
  const name = account.url ? html`<a href="${account.url}" rel="nofollow ugc">@${account.handle}</a>` : html`@${account.handle}`;
  return html`${account.name && html`${account.name} `}${name}${follow.status === 'PENDING' ? html` <span class="meta">(waiting)</span>` : null}`;
}

/** A button that acts on one remote account (accept, decline, remove, unfollow). */
function remoteButton(csrf: string, action: string, handle: string, label: string, secondary = true): Markup {
  return html`<form method="post" action="/settings/fediverse" class="inline">${hidden('csrf', csrf)}${hidden('action', action)}${hidden('handle', handle)}<button type="submit"${secondary ? ' class="secondary"' : ''} aria-label="${label} @${handle}">${label}</button></form>`;
}

/** The remote accounts kept away one way, each with the button that undoes it; nothing when there are none. */
function keptAwayList(csrf: string, accounts: Settings['fediverseBlocked'], action: string, heading: string, label: string): Markup | null {
  if (!accounts?.length) return null;
  return html`<h3>${heading}</h3><ul class="plain">${accounts.map((account) => html`<li>@${account.handle} ${remoteButton(csrf, action, account.handle, label)}</li>`)}</ul>`;
}

/** The fediverse: the athlete's handle, their settings, who follows them from elsewhere and whom they follow there. */
function fediverseCard(csrf: string, host: string | null | undefined, me: Settings, issues?: FieldIssue[]): Markup | null {
  if (!host) return null;
  const followers = me.fediverseFollowers ?? [];
  const following = me.fediverseFollowing ?? [];
  const followerList = followers.length
    ? html`<ul class="plain">${followers.map(
        (follower) =>
          html`<li>${remoteAccount(follower)} ${follower.status === 'PENDING' && remoteButton(csrf, 'accept', follower.account.handle, 'Accept', false)} ${remoteButton(csrf, 'remove', follower.account.handle, follower.status === 'PENDING' ? 'Decline' : 'Remove')} ${remoteButton(csrf, 'block', follower.account.handle, 'Block')}</li>`,
      )}</ul>`
    : html`<p>Nobody yet.</p>`;
  const followingList = following.length
    ? html`<ul class="plain">${following.map((followed) => html`<li>${remoteAccount(followed)} ${remoteButton(csrf, 'unfollow', followed.account.handle, 'Unfollow')} ${remoteButton(csrf, 'mute', followed.account.handle, 'Mute')}</li>`)}</ul>`
    : html`<p>Nobody yet.</p>`;
  const checked = (on: boolean | null | undefined) => (on ? ' checked' : '');
  return html`<section class="card" id="fediverse" aria-labelledby="fediverse-heading"><h2 id="fediverse-heading">Fediverse</h2>${issuesBlock(issues)}
${me.fediverseHandle ? html`<p>People on Mastodon and other fediverse servers follow you as <strong class="handle">@${me.fediverseHandle}</strong>. Only your entries for everyone go to them, without their place or track.</p>` : html`<p>You keep out of the fediverse: nobody there can follow you, and nothing of yours is sent.</p>`}
<form method="post" action="/settings/fediverse">${hidden('csrf', csrf)}${hidden('action', 'settings')}
  <label><input type="checkbox" name="opt_out" value="yes"${checked(me.fediverseOptOut)}> Keep out of the fediverse (your followers there are removed)</label>
  <label><input type="checkbox" name="auto_accept" value="yes"${checked(me.fediverseAutoAccept)}> Accept follows at once, without asking me</label>
  <button type="submit">Save fediverse settings</button>
</form>
<h3>Following you</h3>${followerList}
<h3>You follow</h3>${followingList}<p><a href="/fediverse">Their posts</a></p>
${keptAwayList(csrf, me.fediverseBlocked, 'unblock', 'Blocked', 'Unblock')}${keptAwayList(csrf, me.fediverseMuted, 'unmute', 'Muted', 'Unmute')}
<form method="post" action="/settings/fediverse">${hidden('csrf', csrf)}${hidden('action', 'follow')}
  <label for="fediverse_handle">Follow an account</label><input type="text" id="fediverse_handle" name="handle" maxlength="300" placeholder="@someone@mastodon.social" autocomplete="off" required>
  <button type="submit">Follow</button>
</form></section>`;
}

export type EmailSettings = PageViewerSettingsQuery['emailSettings'];
export type SettingsForm = {
  profileIssues?: FieldIssue[];
  thresholdIssues?: FieldIssue[];
  zoneIssues?: FieldIssue[];
  emailIssues?: FieldIssue[];
  gearIssues?: FieldIssue[];
  fediverseIssues?: FieldIssue[];
  saved?: string | null;
};

const FREQUENCIES = [
  ['IMMEDIATE', 'Each one as it comes'],
  ['DAILY', 'A daily digest'],
  ['OFF', 'Never'],
] as const;

/** Where and how often notifications are mailed; nothing to set where the instance sends no mail. */
function emailCard(csrf: string, email: EmailSettings | undefined, issues?: FieldIssue[]): Markup | null {
  if (!email?.available) return null;
  const state = !email.address
    ? html`<p class="help">Give an address to have your notifications mailed: a link is mailed to it first, to prove it is yours.</p>`
    : email.verified
      ? html`<p class="help">${email.address} is verified.</p>`
      : html`<p class="help" role="status">${email.address} is not verified yet: follow the link mailed to it. <button type="submit" name="resend" value="yes" class="secondary">Mail the link again</button></p>`;
  return html`<section class="card" id="email" aria-labelledby="email-heading"><h2 id="email-heading">Mail</h2>${issuesBlock(issues)}
<form method="post" action="/settings/email">${hidden('csrf', csrf)}
  <label for="address">Address for notifications</label><input type="email" id="address" name="address" maxlength="254" autocomplete="email" value="${email.address ?? ''}">
  ${state}
  <label for="frequency">Mail my notifications</label>${select('frequency', 'frequency', FREQUENCIES, email.frequency)}
  <button type="submit">Save mail settings</button>
</form><p class="help"><a href="/notifications">Choose which kinds are mailed</a>. Every mail has a link that stops them in one click.</p></section>`;
}

type KeptAway = PageViewerSettingsQuery['blocked'] | undefined;

/** The people the athlete blocked and muted, each with the button that undoes it. */
function keptAwayCard(csrf: string, blocked: KeptAway, muted: KeptAway): Markup | null {
  const list = (people: KeptAway, action: 'unblock' | 'unmute', label: string) =>
    people?.edges.length
      ? html`<ul class="plain people">${people.edges.map(
          ({ node }) => html`<li>${avatar(node, '')}${personLink(node)}
      <form method="post" action="/people/${encodeURIComponent(node.username)}/safety" class="inline">${hidden('csrf', csrf)}${hidden('action', action)}${hidden('back', '/settings#kept-away')}
      <button type="submit" class="secondary" aria-label="${label} ${node.displayName}">${label}</button></form></li>`,
        )}</ul>${people.totalCount > people.edges.length ? html`<p class="help">And ${people.totalCount - people.edges.length} more.</p>` : null}`
      : html`<p>Nobody.</p>`;
  return html`<section class="card" id="kept-away" aria-labelledby="kept-away-heading"><h2 id="kept-away-heading">People you keep away</h2>
<h3>Blocked</h3>${list(blocked, 'unblock', 'Unblock')}<h3>Muted</h3>${list(muted, 'unmute', 'Unmute')}</section>`;
}

export function settingsPage(
  visitor: Visitor,
  me: Settings,
  form: SettingsForm = {},
  more: { email?: EmailSettings; blocked?: KeptAway; muted?: KeptAway; fediverseHost?: string | null } = {},
): Markup {
  const { email } = more;
  const problems =
    form.profileIssues?.length ||
    form.thresholdIssues?.length ||
    form.zoneIssues?.length ||
    form.emailIssues?.length ||
    form.gearIssues?.length ||
    form.fediverseIssues?.length;
  return layoutPage(
    visitor,
    'Settings',
    html`${problems ? html`<p class="card error" role="alert">Nothing was saved: see below.</p>` : notice(form.saved ?? null)}
${requestsCard(visitor.csrf, me)}${profileForm(visitor.csrf, me, form.profileIssues)}${thresholdsCard(visitor.csrf, me, form.thresholdIssues)}${gearSettingsCard(visitor.csrf, me.gear, visitor.units, form.gearIssues)}${emailCard(visitor.csrf, email, form.emailIssues)}${fediverseCard(visitor.csrf, more.fediverseHost, me, form.fediverseIssues)}${zonesCard(visitor.csrf, me, form.zoneIssues)}${keptAwayCard(visitor.csrf, more.blocked, more.muted)}
<p><a href="/account">Your account</a>: the apps you authorized, personal tokens, export, import and deletion.</p>`,
    null,
    { maps: { zones: zonesMap(me) } },
  );
}
