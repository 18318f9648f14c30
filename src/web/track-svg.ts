// Pictures of a GPS track for the web pages: a map of its path and an elevation profile, as SVG
// markup. Pure: points in, markup out. Long tracks are thinned to a few hundred vertices, which is
// more than a page-wide picture can show.
import { stepMeters } from '../domain/geo.ts';
import { thin } from '../domain/track.ts';
import { html, type Markup } from '../http/html.ts';
import { climbIn, distanceIn, type UnitSystem } from './units.ts';

export interface MapPoint {
  lat: number;
  lon: number;
  elevation: number | null;
  segment: number;
}

const MAX_VERTICES = 600;

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The path on a plain map: an equirectangular projection scaled by the cosine of the middle latitude,
 * so that a square kilometre looks square. Segments are drawn apart; start and finish are marked.
 */
export function trackMapSvg(
  points: readonly MapPoint[],
  options: { width?: number; height?: number; title: string; thumbnail?: boolean },
): Markup | null {
  const width = options.width ?? 640;
  const height = options.height ?? 400;
  const pad = 16;
  if (points.length === 0) return null;
  const shown = thin(points, MAX_VERTICES);
  const lats = shown.map((p) => p.lat);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const k = Math.cos((midLat * Math.PI) / 180);
  const xs = shown.map((p) => p.lon * k);
  const ys = shown.map((p) => -p.lat);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min((width - 2 * pad) / (maxX - minX || 1e-9), (height - 2 * pad) / (maxY - minY || 1e-9));
  // centred in the frame
  const offsetX = (width - (maxX - minX) * scale) / 2;
  const offsetY = (height - (maxY - minY) * scale) / 2;
  const at = (i: number) => [round(offsetX + (xs[i]! - minX) * scale), round(offsetY + (ys[i]! - minY) * scale)] as const;
  const paths: string[] = [];
  let current: string[] = [];
  shown.forEach((point, i) => {
    if (i > 0 && point.segment !== shown[i - 1]!.segment) {
      paths.push(current.join(' '));
      current = [];
    }
    const [x, y] = at(i);
    current.push(`${current.length === 0 ? 'M' : 'L'}${x} ${y}`);
  });
  paths.push(current.join(' '));
  const [startX, startY] = at(0);
  const [endX, endY] = at(shown.length - 1);
  // a feed card's thumbnail is decoration beside the card's own words (and a page has many: no ids)
  const head = options.thumbnail
    ? html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" aria-hidden="true" focusable="false" class="drawing track-thumb">`
    : html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="map-title" class="drawing track-map">
<title id="map-title">${options.title}</title>`;
  return html`${head}
<rect width="${width}" height="${height}" fill="#eef3ee"/>
${paths.map(
  (d) => html`<path d="${d}" fill="none" stroke="#1f6f50" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>
`,
)}
<circle cx="${startX}" cy="${startY}" r="6" fill="#1f6f50"><title>Start</title></circle>
<circle cx="${endX}" cy="${endY}" r="6" fill="#b3261e"><title>Finish</title></circle>
</svg>`;
}

/** Elevation against distance along the track, with the lowest and highest points labelled. */
export function elevationProfileSvg(
  points: readonly MapPoint[],
  options: { width?: number; height?: number; title: string; units?: UnitSystem },
): Markup | null {
  const units = options.units ?? 'KILOMETERS';
  const width = options.width ?? 640;
  const height = options.height ?? 160;
  const withElevation = points.filter((p): p is MapPoint & { elevation: number } => p.elevation !== null);
  if (withElevation.length < 2) return null;
  // distance along the track, in metres (haversine between consecutive points of one segment)
  const along: number[] = [0];
  for (let i = 1; i < withElevation.length; i++) {
    const a = withElevation[i - 1]!;
    const b = withElevation[i]!;
    along.push(along[i - 1]! + stepMeters(a, b));
  }
  const indices = thin(
    withElevation.map((_, i) => i),
    MAX_VERTICES,
  );
  const elevations = indices.map((i) => withElevation[i]!.elevation);
  const [low, high] = [Math.min(...elevations), Math.max(...elevations)];
  const total = along.at(-1)! || 1;
  const [left, right, top, bottom] = [76, 8, 20, 28];
  const x = (metres: number) => round(left + (metres / total) * (width - left - right));
  const y = (elevation: number) => round(top + (1 - (elevation - low) / (high - low || 1)) * (height - top - bottom));
  const line = indices.map((i, n) => `${n === 0 ? 'M' : 'L'}${x(along[i]!)} ${y(withElevation[i]!.elevation)}`).join(' ');
  const area = `${line} L${x(total)} ${height - bottom} L${x(0)} ${height - bottom} Z`;
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="profile-title" class="drawing elevation-profile">
<title id="profile-title">${options.title}: from ${climbIn(low, units)} to ${climbIn(high, units)} over ${distanceIn(total, units)}</title>
<path d="${area}" fill="#cfe3d6"/>
<path d="${line}" fill="none" stroke="#1f6f50" stroke-width="2"/>
<text x="4" y="${top + 14}" font-size="18" fill="#1d2430">${climbIn(high, units)}</text>
<text x="4" y="${height - bottom}" font-size="18" fill="#1d2430">${climbIn(low, units)}</text>
<text x="${width - right}" y="${height - 4}" font-size="18" fill="#1d2430" text-anchor="end">${distanceIn(total, units)}</text>
</svg>`;
}

/**
 * A reading along a track (heart rate, pace, speed) as a line over distance: `values` in step with
 * `distance` (meters), null where there is no reading. `invert` draws low values on top (pace: faster
 * is higher). Null with fewer than two readings.
 */
export function lineChartSvg(
  distance: readonly number[],
  values: ReadonlyArray<number | null>,
  options: { id: string; title: string; label: (value: number) => string; units: UnitSystem; invert?: boolean; color?: string },
): Markup | null {
  const width = 640;
  const height = 160;
  const known = values.flatMap((value, i) => (value === null || !Number.isFinite(value) ? [] : [[distance[i]!, value] as const]));
  if (known.length < 2) return null;
  const readings = known.map(([, value]) => value);
  const [low, high] = [Math.min(...readings), Math.max(...readings)];
  const total = distance.at(-1)! || 1;
  const [left, right, top, bottom] = [76, 8, 20, 28];
  const x = (meters: number) => round(left + (meters / total) * (width - left - right));
  const share = (value: number) => (value - low) / (high - low || 1);
  const y = (value: number) => round(top + (options.invert ? share(value) : 1 - share(value)) * (height - top - bottom));
  const line = known.map(([meters, value], n) => `${n === 0 ? 'M' : 'L'}${x(meters)} ${y(value)}`).join(' ');
  const [upper, lower] = options.invert ? [low, high] : [high, low];
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${options.id}-title" class="drawing">
<title id="${options.id}-title">${options.title}: from ${options.label(low)} to ${options.label(high)} over ${distanceIn(total, options.units)}</title>
<path d="${line}" fill="none" stroke="${options.color ?? '#b03a2e'}" stroke-width="2"/>
<text x="4" y="${top + 14}" font-size="18" fill="#1d2430">${options.label(upper)}</text>
<text x="4" y="${height - bottom}" font-size="18" fill="#1d2430">${options.label(lower)}</text>
<text x="${width - right}" y="${height - 4}" font-size="18" fill="#1d2430" text-anchor="end">${distanceIn(total, options.units)}</text>
</svg>`;
}
