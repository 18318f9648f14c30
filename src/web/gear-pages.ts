// Gear on the pages: a piece of gear's own page (its totals and workouts; for its owner, the form that
// changes it), the gear on an athlete's page, the settings card that adds it, and the choice of gear
// when posting or editing a workout. Pure: markup out.
import { ACTIVITY_TYPES, SPEC_ACTIVITY_TYPES } from '../domain/activity.ts';
import type { FieldIssue } from '../domain/errors.ts';
import { GEAR_KINDS } from '../domain/gear.ts';
import { html, type Markup } from '../http/html.ts';
import type { PageGearChoiceFragment, PageGearQuery, PageGearSummaryFragment } from '../operations/generated.ts';
import { hidden, issuesBlock } from '../pages/layout.ts';
import { entryCard, formatDuration, lower, type PageEntry, type PagePerson, pager, personLink, plural, time } from './entry-card.ts';
import { distanceIn, metersOf, type UnitSystem } from './units.ts';

export type GearSummary = PageGearSummaryFragment;
export type GearChoice = PageGearChoiceFragment;
export type GearDetail = NonNullable<PageGearQuery['gear']>;

const KIND_NAMES: Record<string, string> = { SHOES: 'Shoes', BIKE: 'Bike', OTHER: 'Other gear' };

/** The activities offered as defaults: SPEC's five first, then the rest. */
const DEFAULT_CHOICES: readonly string[] = [
  ...SPEC_ACTIVITY_TYPES,
  ...ACTIVITY_TYPES.filter((type) => !(SPEC_ACTIVITY_TYPES as readonly string[]).includes(type)),
];

export const gearPath = (gear: { id: number }) => `/gear/${gear.id}`;

/** What the gear form holds, as createGear and updateGear take it (`default_<activity>` boxes ticked: its defaults). */
export function gearFormInput(read: (name: string) => string): {
  name: string;
  brand: string;
  model: string;
  kind: string;
  defaultFor: string[];
} {
  return {
    name: read('name'),
    brand: read('brand'),
    model: read('model'),
    kind: read('kind') || 'OTHER',
    defaultFor: ACTIVITY_TYPES.filter((type) => read(`default_${type}`) === 'yes').map((type) => type.toUpperCase()),
  };
}

/** `Nike Pegasus 40` style: its brand and model, after its kind. */
function makeOf(gear: { kind: string; brand?: string | null; model?: string | null }): string {
  return [KIND_NAMES[gear.kind] ?? lower(gear.kind), [gear.brand, gear.model].filter(Boolean).join(' ')].filter(Boolean).join(' · ');
}

/** `412 km in 38 workouts, 41:05:10 moving`. */
function totalsText(totals: GearSummary['totals'], units: UnitSystem): string {
  if (totals.workouts === 0) return 'No workouts yet.';
  const parts = [`${distanceIn(metersOf(totals.distance), units)} in ${plural(totals.workouts, 'workout')}`];
  if (totals.movingSeconds > 0) parts.push(`${formatDuration(totals.movingSeconds)} moving`);
  return `${parts.join(', ')}.`;
}

/** The gear on an athlete's page: the pieces in use, each with its totals as the reader may see them. */
export function gearSection(gear: readonly GearSummary[], units: UnitSystem): Markup | null {
  if (gear.length === 0) return null;
  return html`<section class="card" aria-labelledby="gear-heading"><h2 id="gear-heading">Gear</h2><ul class="plain">${gear.map(
    (g) => html`<li><a href="${gearPath(g)}">${g.name}</a> · ${makeOf(g)}<br><span class="help">${totalsText(g.totals, units)}</span></li>`,
  )}</ul></section>`;
}

function kindSelect(id: string, chosen: string | null): Markup {
  return html`<select id="${id}" name="kind">${GEAR_KINDS.map((kind) => {
    const value = kind.toUpperCase();
    return value === chosen
      ? html`<option value="${value}" selected>${KIND_NAMES[value]}</option>`
      : html`<option value="${value}">${KIND_NAMES[value]}</option>`;
  })}</select>`;
}

/** Its name, brand, model and kind, and the activities it is the default of, as form fields. */
function gearFields(prefix: string, gear: Partial<GearSummary> | null): Markup {
  const chosen = new Set<string>(gear?.defaultFor ?? []);
  return html`<label for="${prefix}-name">Name</label><input type="text" id="${prefix}-name" name="name" required maxlength="100" value="${gear?.name ?? ''}">
  <label for="${prefix}-brand">Brand</label><input type="text" id="${prefix}-brand" name="brand" maxlength="100" value="${gear?.brand ?? ''}">
  <label for="${prefix}-model">Model</label><input type="text" id="${prefix}-model" name="model" maxlength="100" value="${gear?.model ?? ''}">
  <label for="${prefix}-kind">Kind</label>${kindSelect(`${prefix}-kind`, gear?.kind ?? null)}
  <fieldset class="defaults"><legend>Chosen for these activities when a workout names no gear</legend>${DEFAULT_CHOICES.map((type) => {
    const value = type.toUpperCase();
    return html`<label><input type="checkbox" name="default_${type}" value="yes"${chosen.has(value) ? ' checked' : ''}> ${lower(type)}</label>`;
  })}</fieldset>`;
}

/** The settings card: the athlete's gear, each a link to its page, and the form that adds a piece. */
export function gearSettingsCard(csrf: string, gear: readonly GearSummary[], units: UnitSystem, issues?: FieldIssue[]): Markup {
  const list = gear.length
    ? html`<ul class="plain">${gear.map(
        (g) =>
          html`<li><a href="${gearPath(g)}">${g.name}</a> · ${makeOf(g)}${g.retired ? ' · retired' : ''}${g.defaultFor?.length ? html` · default for ${g.defaultFor.map((type) => lower(type)).join(', ')}` : null}<br><span class="help">${totalsText(g.totals, units)}</span></li>`,
      )}</ul>`
    : html`<p>No gear yet.</p>`;
  return html`<section class="card" id="gear" aria-labelledby="gear-heading"><h2 id="gear-heading">Gear</h2>${issuesBlock(issues)}${list}
<details${issues?.length ? ' open' : ''}><summary>Add shoes, a bike or other gear</summary><form method="post" action="/settings/gear">${hidden('csrf', csrf)}
  ${gearFields('new-gear', null)}
  <button type="submit">Add gear</button></form></details></section>`;
}

/** A piece of gear: what it is, its totals and the workouts done in it; for its owner, how to change or delete it. */
export function gearPageBody(
  csrf: string,
  gear: GearDetail,
  owner: PagePerson | null,
  feed: { entries: PageEntry[]; page: number; hasNext: boolean },
  units: UnitSystem,
  issues?: FieldIssue[],
): Markup {
  // defaults are told to the owner alone: an answer that has them is the owner's
  const own = gear.defaultFor !== null && gear.defaultFor !== undefined;
  const used =
    gear.totals.firstUsedAt && gear.totals.lastUsedAt
      ? html`<p>First used ${time(gear.totals.firstUsedAt)}, last ${time(gear.totals.lastUsedAt)}.</p>`
      : null;
  const edit = own
    ? html`<section class="card" aria-labelledby="edit-gear-heading"><h2 id="edit-gear-heading">Change it</h2>${issuesBlock(issues)}
<details${issues?.length ? ' open' : ''}><summary>Rename, retire or delete it; choose its activities</summary>
<form method="post" action="${gearPath(gear)}">${hidden('csrf', csrf)}${gearFields('gear', gear)}
  <label><input type="checkbox" name="retired" value="yes"${gear.retired ? ' checked' : ''}> Retired: kept with its workouts, never chosen by default</label>
  <button type="submit">Save</button></form>
<form method="post" action="${gearPath(gear)}/delete" class="danger">${hidden('csrf', csrf)}
  <label><input type="checkbox" name="confirm" value="yes" required> Yes, delete it: its workouts stay, without it</label>
  <button type="submit" class="danger">Delete gear</button></form></details></section>`
    : null;
  const workouts = feed.entries.length
    ? html`${feed.entries.map((entry) => entryCard(entry, { link: true, units }))}${pager(gearPath(gear), feed.page, feed.hasNext)}`
    : html`<p class="card">No workouts ${feed.page > 1 ? 'on this page' : 'yet'}.</p>`;
  return html`<section class="card"><p>${makeOf(gear)}${gear.retired ? ' · retired' : ''}</p>${owner ? html`<p>Used by ${personLink(owner)}</p>` : null}
<p>${totalsText(gear.totals, units)}</p>${used}</section>
${edit}
<section aria-labelledby="gear-workouts-heading"><h2 id="gear-workouts-heading">Workouts</h2>${workouts}</section>`;
}

/** The gear a workout may name, for the compose and edit forms; `chosen` an id, "" for the default of its activity, "none". */
export function gearSelect(id: string, gear: readonly GearChoice[], chosen: string, withDefault: boolean): Markup | null {
  if (gear.length === 0) return null;
  const option = (value: string, label: string) =>
    value === chosen ? html`<option value="${value}" selected>${label}</option>` : html`<option value="${value}">${label}</option>`;
  return html`<div><label for="${id}">Gear</label><select id="${id}" name="gear">${withDefault ? option('', 'Default') : null}${option('none', 'None')}${gear.map(
    (g) => option(String(g.id), `${g.name}${g.retired ? ' (retired)' : ''}`),
  )}</select></div>`;
}

/** The gear line of a workout's page: what it was done in, linked. */
export function gearLine(gear: { id: number; name: string } | null | undefined): Markup | null {
  return gear ? html`<p class="card gear">Done in <a href="${gearPath(gear)}">${gear.name}</a></p>` : null;
}
