// What the entry page shows of a workout's track beyond its map: charts of pace (or speed), heart rate
// and power over distance, its laps and splits, time in zones and best power. Server-drawn SVG and
// tables, readable without script and on a phone (wide tables scroll in their own box). Pure.

import { METERS_PER_MILE } from '../domain/units.ts';
import { html, type Markup } from '../http/html.ts';
import type { PageSplitFragment, PageTrackAnalysisFragment, PageZonesFragment } from '../operations/generated.ts';
import { formatDuration } from './entry-card.ts';
import { lineChartSvg } from './track-svg.ts';
import { climbIn, distanceIn, paceIn, type UnitSystem } from './units.ts';

/** Activities whose speed is told as a pace (minutes a kilometre or mile). */
const PACED = new Set(['RUNNING', 'WALKING', 'HIKING']);

/** Speed in the reader's units: `28.4 km/h`, `17.6 mph`. */
const speedIn = (metersPerSecond: number, units: UnitSystem) =>
  units === 'MILES' ? `${(metersPerSecond * 2.236936).toFixed(1)} mph` : `${(metersPerSecond * 3.6).toFixed(1)} km/h`;

/** A pace in seconds a unit, as `5:30 /km`. */
const paceLabel = (secondsPerUnit: number, units: UnitSystem) =>
  paceIn(units === 'MILES' ? METERS_PER_MILE : 1000, secondsPerUnit, units) ?? '';

function charts(track: PageTrackAnalysisFragment, paced: boolean, units: UnitSystem): Markup[] {
  const { distance, heartRate, speed, power } = track.streams;
  const unitMeters = units === 'MILES' ? METERS_PER_MILE : 1000;
  // a pace of a standstill is no pace: below 0.5 m/s a point has none
  const pace = speed.map((value) => (value !== null && value >= 0.5 ? unitMeters / value : null));
  const drawn = [
    paced
      ? lineChartSvg(distance, pace, {
          id: 'pace-chart',
          title: 'Pace along the way',
          label: (value) => paceLabel(value, units),
          units,
          invert: true,
        })
      : lineChartSvg(distance, speed, { id: 'speed-chart', title: 'Speed along the way', label: (value) => speedIn(value, units), units }),
    lineChartSvg(distance, heartRate, {
      id: 'heart-chart',
      title: 'Heart rate along the way',
      label: (value) => `${Math.round(value)} bpm`,
      units,
    }),
    lineChartSvg(distance, power, {
      id: 'power-chart',
      title: 'Power along the way',
      label: (value) => `${Math.round(value)} W`,
      units,
      color: '#6b4fbb',
    }),
  ];
  const captions = [paced ? 'Pace' : 'Speed', 'Heart rate', 'Power'];
  return drawn.flatMap((svg, i) => (svg ? [html`<figure>${svg}<figcaption>${captions[i]} along the way.</figcaption></figure>`] : []));
}

/** `Laps, splits and zones`: the names in a sentence's list, the first capitalized. */
function listed(names: readonly string[]): string {
  const text = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const scrolling = (label: string, table: Markup) =>
  html`<div class="scroll" tabindex="0" role="region" aria-label="${label}">${table}</div>`;

function lapsTable(track: PageTrackAnalysisFragment, units: UnitSystem): Markup | null {
  if (track.laps.length === 0) return null;
  const rows = track.laps.map(
    (lap, i) =>
      html`<tr><th scope="row">${i + 1}</th><td>${distanceIn(lap.distanceMeters, units)}</td><td>${formatDuration(lap.movingSeconds)}</td><td>${paceIn(lap.distanceMeters, lap.movingSeconds, units) ?? '–'}</td><td>${lap.averageHeartRate ?? '–'}</td><td>${lap.averagePower ?? '–'}</td><td>${climbIn(lap.elevationGain, units)}</td></tr>`,
  );
  return scrolling(
    'Table of laps',
    html`<table class="totals"><caption class="meta">Laps as the device recorded them; moving time as h:mm:ss</caption>
<thead><tr><th scope="col">Lap</th><th scope="col">Distance</th><th scope="col">Time</th><th scope="col">Pace</th><th scope="col">Heart rate</th><th scope="col">Power</th><th scope="col">Climb</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

function splitsTable(splits: readonly PageSplitFragment[], units: UnitSystem): Markup | null {
  if (splits.length === 0) return null;
  const unit = units === 'MILES' ? 'mi' : 'km';
  const rows = splits.map(
    (split, i) =>
      html`<tr><th scope="row">${split.partial ? distanceIn(split.distanceMeters, units) : `${i + 1} ${unit}`}</th><td>${formatDuration(split.movingSeconds)}</td><td>${paceIn(split.distanceMeters, split.movingSeconds, units) ?? '–'}</td><td>${split.elevationChange === null ? '–' : `${split.elevationChange >= 0 ? '+' : '−'}${climbIn(Math.abs(split.elevationChange), units)}`}</td><td>${split.averageHeartRate ?? '–'}</td></tr>`,
  );
  return scrolling(
    'Table of splits',
    html`<table class="totals"><caption class="meta">Splits per ${unit === 'mi' ? 'mile' : 'kilometre'}, the last one partial; moving time</caption>
<thead><tr><th scope="col">Split</th><th scope="col">Time</th><th scope="col">Pace</th><th scope="col">Elevation</th><th scope="col">Heart rate</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

function zonesTable(zones: PageZonesFragment | null, what: 'Heart rate' | 'Power', unit: string): Markup | null {
  if (!zones) return null;
  const total = zones.zones.reduce((sum, zone) => sum + zone.seconds, zones.withoutReadingSeconds) || 1;
  const rows = zones.zones.map(
    (zone) =>
      html`<tr><th scope="row">Zone ${zone.number}</th><td>${zone.maximum === null ? `${zone.minimum}+ ${unit}` : `${zone.minimum}–${zone.maximum - 1} ${unit}`}</td><td>${formatDuration(zone.seconds)}</td><td><meter min="0" max="1" value="${(zone.seconds / total).toFixed(3)}" aria-label="Share of zone ${zone.number}">${Math.round((zone.seconds / total) * 100)}%</meter> ${Math.round((zone.seconds / total) * 100)}%</td></tr>`,
  );
  const whose = zones.basis === 'ATHLETE' ? 'your thresholds in the settings' : 'the thresholds the device wrote in its file';
  return html`<table class="totals"><caption class="meta">${what} zones of ${whose}${zones.withoutReadingSeconds > 0 ? `; ${formatDuration(zones.withoutReadingSeconds)} moving without a reading` : ''}</caption>
<thead><tr><th scope="col">Zone</th><th scope="col">Range</th><th scope="col">Time</th><th scope="col">Share</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function powerEffortsList(track: PageTrackAnalysisFragment): Markup | null {
  if (track.powerEfforts.length === 0) return null;
  return html`<p>Best power: ${track.powerEfforts.map((effort, i) => html`${i ? ' · ' : ''}${formatDuration(effort.seconds)} ${effort.watts} W`)}</p>`;
}

/** The analysis section of an entry page; null when the track tells nothing beyond its map (no times). */
export function analysisSection(track: PageTrackAnalysisFragment, activityType: string | null, units: UnitSystem): Markup | null {
  const splits = units === 'MILES' ? track.mi : track.km;
  const drawn = charts(track, PACED.has(activityType ?? ''), units);
  const laps = lapsTable(track, units);
  const split = splitsTable(splits, units);
  const zones = [zonesTable(track.heartRateZones, 'Heart rate', 'bpm'), zonesTable(track.powerZones, 'Power', 'W')].filter(
    (part) => part !== null,
  );
  const power = powerEffortsList(track);
  const parts = [...drawn, laps, split, ...zones, power].filter((part) => part !== null);
  if (parts.length === 0) return null;
  // named by what it holds: a GPX has no laps, a run without a power meter no best power
  const held = [laps && 'laps', split && 'splits', zones.length > 0 && 'zones', power && 'best power'].filter(
    (name): name is string => typeof name === 'string',
  );
  const heading = held.length ? listed(held) : 'Along the way';
  return html`<section class="card" aria-labelledby="analysis-heading"><h2 id="analysis-heading">${heading}</h2>${parts}</section>`;
}
