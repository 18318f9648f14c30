// A person's training on the pages: a bar chart of distance per period drawn on the server
// as SVG (no script), the records table and the streak. Pure: typed GraphQL results in, markup out.

import { METERS_PER_MILE } from '../domain/units.ts';
import { html, type Markup } from '../http/html.ts';
import type { PageTotalsFragment, PageTrainingFragment } from '../operations/generated.ts';
import { climbIn, distanceIn, metersOf, type UnitSystem } from './units.ts';

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

/** What a period's or an activity's totals carry on the pages. */
export type Totals = Pick<PageTotalsFragment, 'workouts' | 'meters' | 'movingSeconds' | 'elevationGainMeters'>;

export type ChartBar = Totals & { firstDay: string };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A round figure at or above `most` metres for the axis's top: 1, 2 or 5 times a power of ten in the reader's units. */
function axisTop(most: number, units: UnitSystem): number {
  const per = units === 'MILES' ? METERS_PER_MILE : 1000;
  const value = Math.max(most / per, 1);
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value)! * power;
  return step * per;
}

/** Where the x axis is labelled: a period that starts a new month (weeks), a new year (months), or every year. */
function axisMarks(bars: readonly ChartBar[]): Array<{ index: number; label: string }> {
  const marks: Array<{ index: number; label: string }> = [];
  bars.forEach((bar, index) => {
    const [year, month] = bar.firstDay.split('-');
    const previous = bars[index - 1]?.firstDay.split('-');
    if (!previous || previous[1] !== month || previous[0] !== year) {
      const yearly = bars.length > 1 && bars[1]!.firstDay.slice(0, 4) !== bars[0]!.firstDay.slice(0, 4);
      marks.push({ index, label: yearly || month === '01' ? year! : MONTHS[Number(month) - 1]! });
    }
  });
  // at most about a dozen labels, evenly
  const every = Math.ceil(marks.length / 12);
  return marks.filter((_, i) => i % every === 0);
}

/**
 * Distance per period as bars, with a labelled y axis in the reader's units and the months (or years)
 * along the x axis; its title names what it shows (its accessible name) and each bar's figure is in its
 * own <title>; the same figures are in the table beside it for those who cannot see it.
 */
export function distanceChartSvg(
  bars: readonly ChartBar[],
  options: { id: string; title: string; units: UnitSystem; width?: number; height?: number },
): Markup {
  const { units } = options;
  const total = bars.reduce((sum, bar) => sum + bar.meters, 0);
  // nothing to draw: a word on how to start, not an empty frame
  if (total === 0)
    return html`<p class="empty-chart">No distance in this time yet. Post a workout from <a href="/">the home page</a>, or import your history from <a href="/account">your account</a>.</p>`;
  const width = options.width ?? 640;
  const height = options.height ?? 260;
  const most = axisTop(Math.max(...bars.map((bar) => bar.meters), 1), units);
  // the y axis in one unit (km or mi, never "0 m" under "5 km"), with room for its longest label
  const per = units === 'MILES' ? METERS_PER_MILE : 1000;
  const axisLabel = (meters: number) => `${Number((meters / per).toFixed(1))} ${units === 'MILES' ? 'mi' : 'km'}`;
  const [left, right, top, bottom] = [14 + 11 * axisLabel(most).length, 8, 16, 40];
  const step = (width - left - right) / Math.max(bars.length, 1);
  const barWidth = Math.max(1, step * 0.7);
  const y = (meters: number) => top + (height - top - bottom) * (1 - meters / most);
  const rects = bars.map((bar, i) => {
    const x = left + i * step + (step - barWidth) / 2;
    return html`<rect x="${x.toFixed(1)}" y="${y(bar.meters).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(height - bottom - y(bar.meters)).toFixed(1)}" fill="#1f6f50"><title>${bar.firstDay}: ${distanceIn(bar.meters, units)}, ${bar.workouts} workout${bar.workouts === 1 ? '' : 's'}</title></rect>`;
  });
  const ticks = [0, most / 2, most].map(
    (meters) =>
      html`<line x1="${left}" y1="${y(meters).toFixed(1)}" x2="${width - right}" y2="${y(meters).toFixed(1)}" stroke="#d0d5dd"/><text x="${left - 6}" y="${(y(meters) + 6).toFixed(1)}" font-size="18" fill="#1d2430" text-anchor="end">${axisLabel(meters)}</text>`,
  );
  const marks = axisMarks(bars).map(
    ({ index, label }) =>
      html`<text x="${(left + index * step).toFixed(1)}" y="${height - 12}" font-size="18" fill="#1d2430">${label}</text>`,
  );
  const first = bars[0]?.firstDay ?? '';
  const last = bars.at(-1)?.firstDay ?? '';
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${options.id}-title" class="drawing distance-chart">
<title id="${options.id}-title">${options.title}: from ${first} to ${last}, ${distanceIn(total, units)} in all</title>
${ticks}
<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#8a94a6"/>
${rects}
${marks}
</svg>`;
}

/** `42 workouts, 312 km, 28:10:00 moving, 2,140 m climbed.` */
export function totalsSentence(totals: Totals, units: UnitSystem): string {
  return `${totals.workouts} workout${totals.workouts === 1 ? '' : 's'}, ${distanceIn(totals.meters, units)}, ${clock(totals.movingSeconds)} moving, ${climbIn(totals.elevationGainMeters, units)} climbed.`;
}

type Measure = { at: string; entry: { url: string } };

/** The records, grouped by sport: running's fastest times, the longest ride and swim, and the biggest climb. */
export function recordsTable(records: NonNullable<PageTrainingFragment['records']>, units: UnitSystem): Markup {
  const row = (name: string, figure: string, record: Measure) =>
    html`<tr><th scope="row">${name}</th><td><a href="${record.entry.url}">${figure}</a></td><td>${record.at.slice(0, 10)}</td></tr>`;
  const groups: Array<[string, Markup[]]> = [
    [
      'Running: fastest times inside timed tracks',
      records.running.map((r) => row(RECORD_NAMES[r.distance] ?? r.distance, clock(r.seconds), r)),
    ],
    [
      'Cycling',
      [
        ...(records.longestRide
          ? [row('Longest ride', distanceIn(metersOf(records.longestRide.distance), units), records.longestRide)]
          : []),
        ...records.power.map((r) => row(`Best ${r.seconds / 60}-minute power`, `${r.watts} W`, r)),
      ],
    ],
    [
      'Swimming',
      records.longestSwim ? [row('Longest swim', distanceIn(metersOf(records.longestSwim.distance), units), records.longestSwim)] : [],
    ],
    ['Any workout', records.biggestClimb ? [row('Biggest climb', climbIn(records.biggestClimb.meters, units), records.biggestClimb)] : []],
  ];
  const shown = groups.filter(([, rows]) => rows.length > 0);
  if (shown.length === 0) return html`<p>No records yet: they come from timed tracks.</p>`;
  return html`${shown.map(
    ([sport, rows]) => html`<table class="records"><caption>${sport}</caption>
<thead><tr><th scope="col">Record</th><th scope="col">Best</th><th scope="col">Day</th></tr></thead><tbody>${rows}</tbody></table>`,
  )}`;
}

export function streakText(streak: NonNullable<PageTrainingFragment['streak']>): Markup {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const weeks = (n: number) => `${n} week${n === 1 ? '' : 's'}`;
  return html`<p>Current streak: <strong>${days(streak.currentDays)}</strong> (${weeks(streak.currentWeeks)} in a row). Longest: ${days(streak.longestDays)}, ${weeks(streak.longestWeeks)}.${streak.lastWorkoutDay ? ` Last workout on ${streak.lastWorkoutDay}.` : ''}</p>`;
}

/** A period's figures as table cells: workouts, distance, moving time, climb. */
export function totalsCells(totals: Totals, units: UnitSystem): Markup {
  return html`<td>${totals.workouts}</td><td>${distanceIn(totals.meters, units)}</td><td>${clock(totals.movingSeconds)}</td><td>${climbIn(totals.elevationGainMeters, units)}</td>`;
}
