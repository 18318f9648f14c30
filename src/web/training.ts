// A person's training on the pages: a bar chart of distance per period drawn on the server
// as SVG (no script), the records table and the streak. Pure: typed GraphQL results in, markup out.

import { html, type Markup } from '../http/html.ts';
import type { PageTotalsFragment, PageTrainingFragment } from '../operations/generated.ts';

const RECORD_NAMES: Record<string, string> = {
  ONE_K: '1 km',
  ONE_MILE: '1 mile',
  FIVE_K: '5 km',
  TEN_K: '10 km',
  HALF_MARATHON: 'Half marathon',
  MARATHON: 'Marathon',
};

export function clock(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h ? `${h}:${String(m).padStart(2, '0')}` : m}:${String(s).padStart(2, '0')}`;
}

const unitsName = (units: string) => (units === 'MILES' ? 'mi' : units === 'KILOMETERS' ? 'km' : units.toLowerCase());
export const distanceText = (d: { value: number; units: string }) => `${Number(d.value.toFixed(1))} ${unitsName(d.units)}`;

/** What a period's or an activity's totals carry on the pages. */
export type Totals = Pick<PageTotalsFragment, 'workouts' | 'meters' | 'distance' | 'movingSeconds' | 'elevationGainMeters'>;

export type ChartBar = Totals & { firstDay: string };

/**
 * Distance per period as bars, with a title naming what it shows (its accessible name) and each bar's
 * figure in its own <title>; the same figures are in the table beside it for those who cannot see it.
 */
export function distanceChartSvg(
  bars: readonly ChartBar[],
  options: { id: string; title: string; width?: number; height?: number },
): Markup {
  const width = options.width ?? 640;
  const height = options.height ?? 200;
  const top = 28;
  const bottom = 34;
  const left = 4;
  const most = Math.max(...bars.map((bar) => bar.meters), 1);
  const step = (width - left * 2) / Math.max(bars.length, 1);
  const barWidth = Math.max(1, step * 0.7);
  const units = bars.find((bar) => bar.distance)?.distance.units ?? 'KILOMETERS';
  const rects = bars.map((bar, i) => {
    const h = ((height - top - bottom) * bar.meters) / most;
    const x = left + i * step + (step - barWidth) / 2;
    const y = height - bottom - h;
    return html`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" fill="#1f6f50"><title>${bar.firstDay}: ${distanceText(bar.distance)}, ${bar.workouts} workout${bar.workouts === 1 ? '' : 's'}</title></rect>`;
  });
  const first = bars[0]?.firstDay ?? '';
  const last = bars.at(-1)?.firstDay ?? '';
  const peak = distanceText({ value: bars.reduce((a, bar) => Math.max(a, bar.distance.value), 0), units });
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${options.id}-title" class="distance-chart">
<title id="${options.id}-title">${options.title}: from ${first} to ${last}, at most ${peak}</title>
<line x1="0" y1="${height - bottom}" x2="${width}" y2="${height - bottom}" stroke="#8a94a6"/>
${rects}
<text x="${left}" y="${height - 8}" font-size="22" fill="#4a5568">${first}</text>
<text x="${width - left}" y="${height - 8}" font-size="22" fill="#4a5568" text-anchor="end">${last}</text>
<text x="${left}" y="${top - 6}" font-size="22" fill="#4a5568">${peak}</text>
</svg>`;
}

type Measure = { at: string; entry: { url: string } };

export function recordsTable(records: NonNullable<PageTrainingFragment['records']>): Markup {
  const rows = records.running.map(
    (record) =>
      html`<tr><th scope="row">${RECORD_NAMES[record.distance] ?? record.distance}</th><td><a href="${record.entry.url}">${clock(record.seconds)}</a></td><td>${record.at.slice(0, 10)}</td></tr>`,
  );
  const other = [
    records.longestRide ? ['Longest ride', distanceText(records.longestRide.distance), records.longestRide] : null,
    records.biggestClimb ? ['Biggest climb', `${Math.round(records.biggestClimb.meters)} m`, records.biggestClimb] : null,
    records.longestSwim ? ['Longest swim', distanceText(records.longestSwim.distance), records.longestSwim] : null,
  ]
    .filter((row) => row !== null)
    .map(
      ([name, figure, record]) =>
        html`<tr><th scope="row">${name as string}</th><td><a href="${(record as Measure).entry.url}">${figure as string}</a></td><td>${(record as Measure).at.slice(0, 10)}</td></tr>`,
    );
  if (rows.length + other.length === 0) return html`<p>No records yet: they come from timed tracks.</p>`;
  return html`<table><caption class="meta">Fastest times found inside timed running tracks, and the biggest workouts</caption>
<thead><tr><th scope="col">Record</th><th scope="col">Best</th><th scope="col">Day</th></tr></thead>
<tbody>${rows}${other}</tbody></table>`;
}

export function streakText(streak: NonNullable<PageTrainingFragment['streak']>): Markup {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const weeks = (n: number) => `${n} week${n === 1 ? '' : 's'}`;
  return html`<p>Current streak: <strong>${days(streak.currentDays)}</strong> (${weeks(streak.currentWeeks)} in a row). Longest: ${days(streak.longestDays)}, ${weeks(streak.longestWeeks)}.${streak.lastWorkoutDay ? ` Last workout on ${streak.lastWorkoutDay}.` : ''}</p>`;
}

/** A period's figures as table cells: workouts, distance, moving time, climb. */
export function totalsCells(totals: Totals): Markup {
  return html`<td>${totals.workouts}</td><td>${distanceText(totals.distance)}</td><td>${clock(totals.movingSeconds)}</td><td>${Math.round(totals.elevationGainMeters)} m</td>`;
}
