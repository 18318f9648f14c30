// The forms of the athlete's pages: posting an entry, commenting, liking, choosing who sees an entry,
// deleting it, and befriending. Plain HTML forms that work without script, each with its CSRF token.
// Pure: markup out.

import { ACTIVITY_TYPES, FEELINGS } from '../domain/activity.ts';
import type { FieldIssue } from '../domain/errors.ts';
import { html, type Markup } from '../http/html.ts';
import { hidden, issuesBlock } from '../pages/layout.ts';
import { lower, visibilityName } from './entry-card.ts';
import { type GearChoice, gearSelect } from './gear-pages.ts';

export const VISIBILITIES = ['EVERYONE', 'FRIENDS', 'ONLY_ME'] as const;

/** What the compose form held when it was refused, to show it again. */
export interface ComposeDraft {
  kind?: string;
  message?: string;
  activity?: string;
  title?: string;
  distance?: string;
  distanceUnits?: string;
  duration?: string;
  felt?: string;
  date?: string;
  place?: string;
  visibility?: string;
  gear?: string;
}

const option = (value: string, label: string, chosen: string | undefined) =>
  value === chosen ? html`<option value="${value}" selected>${label}</option>` : html`<option value="${value}">${label}</option>`;

function visibilitySelect(id: string, chosen: string): Markup {
  return html`<select id="${id}" name="visibility">${VISIBILITIES.map((v) => option(v, visibilityName(v), chosen))}</select>`;
}

/** The form that posts a note or a workout, with a track file or a photo. */
export function composeForm(
  csrf: string,
  defaults: { visibility: string; units: string; timeZone?: string | null; gear?: readonly GearChoice[] },
  draft: ComposeDraft = {},
  issues?: FieldIssue[],
): Markup {
  const units = draft.distanceUnits ?? (defaults.units === 'MILES' ? 'miles' : 'kilometers');
  // the workout's fields show once "A workout" is chosen (CSS, no script); the files wait behind a
  // disclosure, so that the form leaves the feed on the first screen of a phone
  const zone = defaults.timeZone ? html`your time, ${defaults.timeZone}` : html`your time; <a href="/settings">set your time zone</a>`;
  return html`<section class="card" aria-labelledby="compose-heading"><h2 id="compose-heading">Post</h2>${issuesBlock(issues)}
<form method="post" action="/compose" enctype="multipart/form-data" class="compose">${hidden('csrf', csrf)}${
    // the zone "When" is read in: the athlete's; else the browser's, which the page's script fills in
    defaults.timeZone ? hidden('date_zone', defaults.timeZone) : html`<input type="hidden" name="date_zone" value="" data-browser-zone>`
  }
  <fieldset class="choice"><legend>What</legend>
    <label><input type="radio" name="kind" value="note"${draft.kind === 'workout' ? '' : ' checked'}> A note</label>
    <label><input type="radio" name="kind" value="workout" id="compose-kind-workout"${draft.kind === 'workout' ? ' checked' : ''}> A workout</label>
  </fieldset>
  <label for="compose-message">Message</label><textarea id="compose-message" name="message" rows="2" maxlength="5000">${draft.message ?? ''}</textarea>
  <fieldset class="workout-fields"><legend>Workout details</legend>
    <div class="grid">
      <div><label for="compose-activity">Activity</label><select id="compose-activity" name="activity">${ACTIVITY_TYPES.map((type) => option(type, lower(type), draft.activity ?? 'running'))}</select></div>
      <div><label for="compose-title">Title</label><input type="text" id="compose-title" name="title" maxlength="200" value="${draft.title ?? ''}"></div>
      <div><label for="compose-distance">Distance</label><input type="text" inputmode="decimal" id="compose-distance" name="distance" value="${draft.distance ?? ''}" aria-describedby="compose-distance-units"></div>
      <div><label for="compose-distance-units">Units</label><select id="compose-distance-units" name="distance_units">${['kilometers', 'miles', 'meters', 'yards'].map((u) => option(u, u, units))}</select></div>
      <div><label for="compose-duration">Duration (h:mm:ss)</label><input type="text" id="compose-duration" name="duration" placeholder="0:45:10" value="${draft.duration ?? ''}"></div>
      <div><label for="compose-felt">Felt</label><select id="compose-felt" name="felt"><option value="">—</option>${FEELINGS.map((f) => option(f, f, draft.felt))}</select></div>
      ${gearSelect('compose-gear', defaults.gear ?? [], draft.gear ?? '', true)}
      <div><label for="compose-date">When</label><input type="datetime-local" id="compose-date" name="date" value="${draft.date ?? ''}" aria-describedby="compose-date-help"><p class="help" id="compose-date-help">In ${zone}. Empty: now.</p></div>
    </div>
  </fieldset>
  <details class="attach"${draft.place ? ' open' : ''}><summary>Add a place, a track file or a photo</summary>
  <label for="compose-place">Place</label><input type="text" id="compose-place" name="place" maxlength="200" value="${draft.place ?? ''}">
  <label for="compose-track">Track: a GPX, FIT or TCX file</label><input type="file" id="compose-track" name="track" accept=".gpx,.fit,.tcx,.gz,application/gpx+xml" aria-describedby="compose-track-help">
  <p class="help" id="compose-track-help">Without a photo, the workout is read from the file: its activity, distance, time and date. With a photo, a GPX file is the track of the workout described above, and fills in what you leave blank.</p>
  <label for="compose-photo">Photo (JPEG, PNG, WebP or GIF, up to 10 MB)</label><input type="file" id="compose-photo" name="photo" accept="image/jpeg,image/png,image/webp,image/gif">
  </details>
  <div class="send"><label for="compose-visibility">Who sees it</label>${visibilitySelect('compose-visibility', draft.visibility ?? defaults.visibility)}
  <button type="submit">Post</button></div>
</form></section>`;
}

/** Like or unlike, comment, and for the author: who sees it, and delete. */
export function entryActions(
  csrf: string,
  entry: {
    id: number;
    visibility: string;
    url: string;
    message?: string | null;
    workout?: { title?: string | null; gear?: { id: number } | null } | null;
  },
  state: { liked: boolean; own: boolean; comment?: string; issues?: FieldIssue[]; gear?: readonly GearChoice[] },
): Markup {
  const base = `/entries/${entry.id}`;
  const like = state.liked
    ? html`<form method="post" action="${base}/unlike" data-inplace="Like taken back.">${hidden('csrf', csrf)}<button type="submit" class="secondary" aria-pressed="true">Liked · Unlike</button></form>`
    : html`<form method="post" action="${base}/like" data-inplace="Liked.">${hidden('csrf', csrf)}<button type="submit">Like</button></form>`;
  const title = entry.workout
    ? html`<label for="edit-title">Title</label><input type="text" id="edit-title" name="workout_title" maxlength="200" value="${entry.workout.title ?? ''}">
      ${gearSelect('edit-gear', state.gear ?? [], entry.workout.gear ? String(entry.workout.gear.id) : 'none', false)}`
    : null;
  const author = state.own
    ? html`<details class="edit"><summary>Edit the entry</summary><form method="post" action="${base}/edit">${hidden('csrf', csrf)}${title}
        <label for="edit-message">Message</label><textarea id="edit-message" name="message" rows="4" maxlength="5000">${entry.message ?? ''}</textarea>
        <button type="submit">Save changes</button></form></details>
      <form method="post" action="${base}/visibility" class="inline">${hidden('csrf', csrf)}<label for="entry-visibility">Who sees it</label>
        ${visibilitySelect('entry-visibility', entry.visibility)} <button type="submit" class="secondary">Save</button></form>
      <form method="post" action="${base}/delete" class="danger">${hidden('csrf', csrf)}
        <label><input type="checkbox" name="confirm" value="yes" required> Yes, delete this entry with its comments, likes, track and photo</label>
        <button type="submit" class="danger">Delete entry</button></form>`
    : null;
  // like, unlike and comment answer in place where script runs (data-inplace: what to announce)
  const report = state.own ? null : reportForm(csrf, entry.id, {});
  return html`<section class="card" aria-labelledby="actions-heading" data-live="actions"><h2 id="actions-heading" class="visually-hidden">Respond</h2>${issuesBlock(state.issues)}
  <div class="actions">${like}</div>
  <form method="post" action="${base}/comment" data-inplace="Comment posted." data-focus="#comment-body">${hidden('csrf', csrf)}<label for="comment-body">Your comment</label>
    <textarea id="comment-body" name="body" rows="2" maxlength="510" required>${state.comment ?? ''}</textarea>
    <button type="submit">Comment</button></form>
  ${author}${report}
</section>`;
}

/** Reporting an entry or a comment to the moderators, behind a disclosure. */
export function reportForm(csrf: string, entryId: number, target: { commentId?: number }): Markup {
  const id = target.commentId ? `report-comment-${target.commentId}` : 'report-entry';
  return html`<details class="report"><summary>Report${target.commentId ? null : ' this entry'}</summary><form method="post" action="/entries/${entryId}/report">${hidden('csrf', csrf)}${hidden('comment', target.commentId ? String(target.commentId) : null)}
    <label for="${id}">What is wrong</label><textarea id="${id}" name="reason" rows="2" maxlength="500" required></textarea>
    <button type="submit" class="secondary">Report to the moderators</button></form></details>`;
}

/** Reporting a person (their name, their profile, a pattern) to the moderators, behind a disclosure. */
export function reportPersonForm(csrf: string, person: { id: string; username: string }): Markup {
  return html`<details class="report"><summary>Report this person</summary><form method="post" action="/people/${encodeURIComponent(person.username)}/report">${hidden('csrf', csrf)}${hidden('person', person.id)}
    <label for="report-person">What is wrong</label><textarea id="report-person" name="reason" rows="2" maxlength="500" required></textarea>
    <button type="submit" class="secondary">Report to the moderators</button></form></details>`;
}

/** Their own comment's text, to change (behind a disclosure; in place where script runs). */
export function editCommentForm(csrf: string, entryId: number, comment: { id: number; body: string }): Markup {
  return html`<details class="edit"><summary>Edit</summary><form method="post" action="/entries/${entryId}/comments/${comment.id}/edit" data-inplace="Comment saved." data-focus="#comments-heading">${hidden('csrf', csrf)}
    <label for="edit-comment-${comment.id}">Your comment</label><textarea id="edit-comment-${comment.id}" name="body" rows="2" maxlength="510" required>${comment.body}</textarea>
    <button type="submit">Save</button></form></details>`;
}

/** Where the viewer stands with a person, and what they may do about it. */
export function friendshipForm(csrf: string, username: string, status: string | null): Markup | null {
  if (status === null) return null;
  const action = `/people/${encodeURIComponent(username)}/friendship`;
  const button = (value: string, label: string, kind = '') =>
    html`<form method="post" action="${action}">${hidden('csrf', csrf)}${hidden('action', value)}<button type="submit"${kind ? html` class="${kind}"` : ''}>${label}</button></form>`;
  const parts: Record<string, Markup> = {
    NONE: html`<p>You are not friends.</p><div class="actions">${button('request', 'Ask to be friends')}</div>`,
    REQUESTED: html`<p>You asked to be friends; waiting for an answer.</p><div class="actions">${button('remove', 'Withdraw the request', 'secondary')}</div>`,
    INCOMING: html`<p>They asked to be your friend.</p><div class="actions">${button('accept', 'Accept')}${button('decline', 'Decline', 'secondary')}</div>`,
    FRIENDS: html`<p>You are friends.</p><div class="actions">${button('remove', 'Unfriend', 'secondary')}</div>`,
  };
  return html`<section class="card" aria-labelledby="friendship-heading"><h2 id="friendship-heading">Friendship</h2>${parts[status] ?? null}</section>`;
}

/** Keeping a person away: block or unblock, mute or unmute (for a logged-in viewer on someone else's page). */
export function safetyForm(csrf: string, person: { id: string; username: string }, state: { blocked: boolean; muted: boolean }): Markup {
  const { username } = person;
  const action = `/people/${encodeURIComponent(username)}/safety`;
  const button = (value: string, label: string, kind: string) =>
    html`<form method="post" action="${action}">${hidden('csrf', csrf)}${hidden('action', value)}<button type="submit" class="${kind}">${label}</button></form>`;
  const said = [
    state.blocked
      ? 'You blocked them: neither of you sees the other’s entries, and they cannot find you, comment, like or ask to be friends.'
      : null,
    state.muted ? 'You muted them: their entries stay out of your streams.' : null,
  ].filter(Boolean);
  return html`<section class="card" aria-labelledby="safety-heading"><h2 id="safety-heading">Keep away</h2>
  ${said.length ? html`<p>${said.join(' ')}</p>` : html`<p>Muting leaves their entries out of your streams; blocking also hides yours from them and ends a friendship. They are not told.</p>`}
  <div class="actions">${state.muted ? button('unmute', 'Unmute', 'secondary') : button('mute', 'Mute', 'secondary')}${
    state.blocked ? button('unblock', 'Unblock', 'secondary') : button('block', 'Block', 'danger')
  }</div>${reportPersonForm(csrf, person)}</section>`;
}

/** Find an athlete by their username. */
export function findForm(value = ''): Markup {
  return html`<form method="get" action="/people" class="find" role="search"><label for="find-username">Find an athlete by username</label>
  <div class="inline"><input type="text" id="find-username" name="username" maxlength="30" autocomplete="off" value="${value}"> <button type="submit" class="secondary">Find</button></div></form>`;
}

/** Search people and entries (the search page, and the home page's box). */
export function searchForm(value = ''): Markup {
  return html`<form method="get" action="/search" class="find" role="search" aria-label="Search again"><label for="search-page-q">Search people and entries</label>
  <div class="inline"><input type="search" id="search-page-q" name="q" maxlength="200" autocomplete="off" value="${value}"> <button type="submit" class="secondary">Search</button></div></form>`;
}

/** Deleting a comment (its author's, or the entry author's). */
export function deleteCommentForm(csrf: string, entryId: number, commentId: number): Markup {
  return html`<form method="post" action="/entries/${entryId}/comments/${commentId}/delete" class="inline" data-inplace="Comment deleted." data-focus="#comments-heading">${hidden('csrf', csrf)}<button type="submit" class="secondary" aria-label="Delete comment ${commentId}">Delete</button></form>`;
}
