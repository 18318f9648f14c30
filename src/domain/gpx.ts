// GPX 1.0 and 1.1 in and out. Parsing streams through readXml (xml-stream.ts): saxes under the bounds
// every uploaded document is read with, a DOCTYPE refused before anything is expanded or fetched.
import type { SaxesTagNS } from 'saxes';
import { ValidationError } from './errors.ts';
import { escapeMarkup } from './markup.ts';
import type { GpxPoint } from './track.ts';
import { PackedPointsWriter } from './track-codec.ts';
import { readXml } from './xml-stream.ts';

export type { GpxPoint };

export const GPX_NAMESPACES = new Set(['http://www.topografix.com/GPX/1/1', 'http://www.topografix.com/GPX/1/0', '']);
const TRACKPOINT_EXTENSION = /^http:\/\/www\.garmin\.com\/xmlschemas\/TrackPointExtension\/v\d$/;
export const DEFAULT_MAX_GPX_BYTES = 20 * 1024 * 1024;
/** Real GPX nests under ten levels (extensions included); past this, a document is an attack. */
export const MAX_GPX_DEPTH = 32;
/** Elements of any kind in one document: a 20 MB track of 200,000 points with extensions holds ~2M. */
export const MAX_GPX_ELEMENTS = 4_000_000;
/** Beyond the deepest trench and the stratosphere: a number outside is a broken device or an attack. */
const ELEVATION_LIMIT_METERS = 100_000;

export interface GpxWaypoint {
  lat: number;
  lon: number;
  elevation: number | null;
  time: Date | null;
  name: string | null;
}

export interface ParsedGpx {
  name: string | null;
  /** The track's `<type>` as the recording app wrote it (`running`, `cycling`, `9`), when it did. */
  type?: string | null;
  /** The recorded track (`<trk>`); a document with routes only gives its route's points here. */
  points: GpxPoint[];
  /** The planned routes (`<rte>`, `segment` numbers them) of a document that also holds a track. */
  routePoints: GpxPoint[];
  waypoints: GpxWaypoint[];
  /** What was dropped from the document to read it, one sentence each (empty for a clean one). */
  repairs: string[];
}

const fail = (message: string): never => {
  throw ValidationError.field('gpx', message);
};

/** A track point before its values are read: parsers fill it in as the document goes. */
export function emptyPoint(segment: number): GpxPoint {
  return { lat: 0, lon: 0, elevation: null, time: null, heartRate: null, cadence: null, segment, power: null };
}

/** `kind` and `index` name the point only when something is wrong: building names for every value is costly. */
function parseNumber(text: string, field: string, kind: string, index: number, limit = Number.MAX_VALUE): number {
  const value = Number(text);
  if (!Number.isFinite(value) || text.trim() === '') fail(`${kind} ${index} ${field} "${text.trim().slice(0, 40)}" is not a number`);
  if (Math.abs(value) > limit) fail(`${kind} ${index} ${field} ${text.trim().slice(0, 40)} is outside -${limit}..${limit}`);
  return value;
}

/** An optional number: an empty element (`<ele/>`, as OsmAnd writes) means the value is absent. */
function optionalNumber(text: string, field: string, kind: string, index: number, limit: number): number | null {
  return text.trim() === '' ? null : parseNumber(text, field, kind, index, limit);
}

const ISO_TIME = /^\s*\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?\s*$/;
// GPS began in 1980; a year past 2200 is a broken clock, and both ends stay valid dates in every database
const EARLIEST_TIME = Date.UTC(1970, 0, 1);
const LATEST_TIME = Date.UTC(2200, 0, 1);

/**
 * A point's time; a well-formed time outside 1970..2199 (GPSBabel writes the 32-bit epoch's minimum,
 * 1901-12-13, for points it has no time for) is dropped: null, and `absurd` is told.
 */
function parseTime(text: string, field: string, kind: string, index: number, absurd: () => void): Date | null {
  if (text.trim() === '') return null;
  const date = new Date(text.trim());
  if (!ISO_TIME.test(text) || Number.isNaN(date.getTime()))
    fail(`${kind} ${index} ${field} "${text.trim().slice(0, 40)}" is not an ISO 8601 time`);
  if (date.getTime() < EARLIEST_TIME || date.getTime() >= LATEST_TIME) {
    absurd();
    return null;
  }
  return date;
}

/** Reads the lat and lon attributes into `into`. */
function coordinates(tag: SaxesTagNS, kind: string, index: number, into: { lat: number; lon: number }): void {
  const lat = tag.attributes.lat?.value;
  const lon = tag.attributes.lon?.value;
  if (lat === undefined || lon === undefined) fail(`${kind} ${index} needs lat and lon attributes`);
  into.lat = parseNumber(lat!, 'lat', kind, index);
  into.lon = parseNumber(lon!, 'lon', kind, index);
  if (into.lat < -90 || into.lat > 90) fail(`${kind} ${index} lat ${into.lat} is outside -90..90`);
  if (into.lon < -180 || into.lon > 180) fail(`${kind} ${index} lon ${into.lon} is outside -180..180`);
}

/** What a document holds besides its track points, which go to the parser's caller one at a time. */
interface GpxRest {
  name: string | null;
  type?: string | null;
  /** The route points (`<rte>`, `segment` numbers them). */
  routePoints: GpxPoint[];
  waypoints: GpxWaypoint[];
  repairs: string[];
}

/**
 * Parses a GPX document from a stream of bytes, at most `maxBytes`. Track points come from `<trk>`
 * segments; a document with no track but a route (`<rte>`) gives the route's points instead.
 * Invalid input throws ValidationError on the field `gpx`.
 */
export async function parseGpx(
  source: AsyncIterable<Uint8Array> | Uint8Array | string,
  maxBytes = DEFAULT_MAX_GPX_BYTES,
): Promise<ParsedGpx> {
  const points: GpxPoint[] = [];
  const rest = await readGpx(source, maxBytes, (point) => points.push(point));
  // a route alone stands for the track (one segment); beside a track it is kept as the plan
  if (points.length === 0) return { ...rest, points: rest.routePoints.map((p) => ({ ...p, segment: 0 })), routePoints: [] };
  return { ...rest, points };
}

/** A parsed document whose track points are packed (track-codec.ts) as they are read. */
export interface PackedGpx extends Omit<ParsedGpx, 'points'> {
  pointData: Uint8Array;
}

/**
 * parseGpx for an upload that is stored: the same rules and refusals, but the track's points are packed
 * as they are read instead of kept as objects (200,000 points: 7 MB instead of about 30, and no
 * object a point for the collector to move).
 */
export async function parsePackedGpx(
  source: AsyncIterable<Uint8Array> | Uint8Array | string,
  maxBytes = DEFAULT_MAX_GPX_BYTES,
): Promise<PackedGpx> {
  const points = new PackedPointsWriter();
  const rest = await readGpx(source, maxBytes, (point) => points.push(point));
  if (points.length > 0) return { ...rest, pointData: points.finish() };
  for (const p of rest.routePoints) points.push({ ...p, segment: 0 });
  return { ...rest, routePoints: [], pointData: points.finish() };
}

async function readGpx(
  source: AsyncIterable<Uint8Array> | Uint8Array | string,
  maxBytes: number,
  addTrackPoint: (point: GpxPoint) => void,
): Promise<GpxRest> {
  const result: GpxRest = { name: null, routePoints: [], waypoints: [], repairs: [] };
  let trackPoints = 0;
  let absurdTimes = 0;
  const absurd = () => {
    absurdTimes += 1;
  };
  let route = -1;
  const routePoints = result.routePoints;
  // the element being read: plain objects and a separate kind keep the hot path free of spreads
  let kind: 'trkpt' | 'rtept' | 'wpt' | null = null;
  let point: GpxPoint | null = null;
  let waypoint: GpxWaypoint | null = null;
  let segment = -1;
  let gpxUri: string | null = null;

  await readXml(
    source,
    { field: 'gpx', maxBytes, maxDepth: MAX_GPX_DEPTH, maxElements: MAX_GPX_ELEMENTS },
    {
      open(local, uri, tag) {
        if (gpxUri === null) {
          if (local !== 'gpx' || !GPX_NAMESPACES.has(uri)) fail(`the root element is <${tag.name}>, not GPX 1.0 or 1.1 <gpx>`);
          gpxUri = uri;
        }
        if (uri !== gpxUri) return;
        if (local === 'trkseg') segment += 1;
        else if (local === 'rte') route += 1;
        else if (local === 'trkpt' || local === 'rtept') {
          const index = (local === 'trkpt' ? trackPoints : routePoints.length) + 1;
          if (local === 'trkpt' && segment < 0) segment = 0;
          kind = local;
          point = emptyPoint(local === 'trkpt' ? segment : Math.max(route, 0));
          coordinates(tag, local, index, point);
        } else if (local === 'wpt') {
          kind = 'wpt';
          waypoint = { lat: 0, lon: 0, elevation: null, time: null, name: null };
          coordinates(tag, 'wpt', result.waypoints.length + 1, waypoint);
        }
      },
      close(local, uri, text, parent) {
        if (kind !== null && uri === gpxUri) {
          const target = kind === 'wpt' ? waypoint! : point!;
          const index = (kind === 'wpt' ? result.waypoints.length : kind === 'trkpt' ? trackPoints : routePoints.length) + 1;
          if (local === 'ele' && parent === kind) target.elevation = optionalNumber(text, 'ele', kind, index, ELEVATION_LIMIT_METERS);
          else if (local === 'time' && parent === kind) target.time = parseTime(text, 'time', kind, index, absurd);
          else if (local === 'power' && parent === 'extensions' && kind === 'trkpt') {
            // Strava's GPX: <extensions><power>250</power></extensions>, in the document's namespace
            const value = optionalNumber(text, 'power', kind, index, 10_000);
            if (value !== null && value < 0) fail(`${kind} ${index} power ${value} is negative`);
            point!.power = value === null ? null : Math.round(value);
          } else if (local === 'name' && parent === 'wpt' && kind === 'wpt') waypoint!.name = text.trim().slice(0, 200) || null;
          else if (local === kind) {
            if (kind === 'wpt') result.waypoints.push(waypoint!);
            else if (kind === 'trkpt') {
              addTrackPoint(point!);
              trackPoints += 1;
            } else routePoints.push(point!);
            kind = null;
          }
        } else if (kind !== null && kind !== 'wpt' && (local === 'hr' || local === 'cad') && TRACKPOINT_EXTENSION.test(uri)) {
          readSensor(point!, local, text, kind, trackPoints + 1);
        } else if (uri === gpxUri) readTitle(result, local, parent, text);
      },
    },
  ).catch((error: unknown) => {
    // a document without a single element is named for what it is not
    if (error instanceof ValidationError && /is empty/.test(error.message)) fail('is empty: no <gpx> root element');
    throw error;
  });
  if (absurdTimes > 0)
    result.repairs.push(
      `${absurdTimes === 1 ? '1 time was' : `${absurdTimes} times were`} outside 1970..2199 and dropped: those points are kept without a time`,
    );
  return result;
}

/** A heart rate or cadence of a Garmin TrackPointExtension, of the point being read (the `index`th of its `kind`). */
function readSensor(point: GpxPoint, local: 'hr' | 'cad', text: string, kind: 'trkpt' | 'rtept', index: number): void {
  const what = local === 'hr' ? 'heart rate' : 'cadence';
  const value = optionalNumber(text, what, kind, index, 1000);
  if (value !== null && value < 0) fail(`${kind} ${index} ${what} ${value} is negative`);
  if (local === 'hr') point.heartRate = value === null ? null : Math.round(value);
  else point.cadence = value === null ? null : Math.round(value);
}

/** The document's name (the first of its metadata's, track's, route's or root's) and its track's type. */
function readTitle(result: GpxRest, local: string, parent: string | undefined, text: string): void {
  if (local === 'name' && result.name === null && (parent === 'metadata' || parent === 'trk' || parent === 'rte' || parent === 'gpx')) {
    result.name = text.trim().slice(0, 200) || null;
  } else if (local === 'type' && parent === 'trk' && !result.type) {
    result.type = text.trim().slice(0, 100) || null;
  }
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.000Z$/, 'Z');

/** GPX 1.1, in chunks, so that a long track streams out without one huge string. */
export function* gpxChunks(track: {
  name: string | null;
  points: Iterable<GpxPoint>;
  routePoints?: Iterable<GpxPoint>;
  waypoints: Iterable<GpxWaypoint>;
}): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield '<gpx version="1.1" creator="Milepost" xmlns="http://www.topografix.com/GPX/1/1" ' +
    'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n';
  if (track.name) yield `  <metadata><name>${escapeMarkup(track.name)}</name></metadata>\n`;
  for (const w of track.waypoints) {
    let body = '';
    if (w.elevation !== null) body += `<ele>${w.elevation}</ele>`;
    if (w.time) body += `<time>${isoSeconds(w.time)}</time>`;
    if (w.name) body += `<name>${escapeMarkup(w.name)}</name>`;
    yield `  <wpt lat="${w.lat}" lon="${w.lon}">${body}</wpt>\n`;
  }
  yield `  <trk>${track.name ? `<name>${escapeMarkup(track.name)}</name>` : ''}\n`;
  let segment: number | null = null;
  let buffer = '';
  for (const p of track.points) {
    if (p.segment !== segment) {
      if (segment !== null) buffer += '    </trkseg>\n';
      buffer += '    <trkseg>\n';
      segment = p.segment;
    }
    let body = '';
    if (p.elevation !== null) body += `<ele>${p.elevation}</ele>`;
    if (p.time) body += `<time>${isoSeconds(p.time)}</time>`;
    const power = p.power ?? null;
    if (p.heartRate !== null || p.cadence !== null || power !== null) {
      body += '<extensions>';
      if (power !== null) body += `<power>${power}</power>`;
      if (p.heartRate !== null || p.cadence !== null) {
        body += '<gpxtpx:TrackPointExtension>';
        if (p.heartRate !== null) body += `<gpxtpx:hr>${p.heartRate}</gpxtpx:hr>`;
        if (p.cadence !== null) body += `<gpxtpx:cad>${p.cadence}</gpxtpx:cad>`;
        body += '</gpxtpx:TrackPointExtension>';
      }
      body += '</extensions>';
    }
    buffer += `      <trkpt lat="${p.lat}" lon="${p.lon}">${body}</trkpt>\n`;
    if (buffer.length > 64 * 1024) {
      yield buffer;
      buffer = '';
    }
  }
  if (segment !== null) buffer += '    </trkseg>\n';
  yield `${buffer}  </trk>\n`;
  let route: number | null = null;
  buffer = '';
  for (const p of track.routePoints ?? []) {
    if (p.segment !== route) {
      if (route !== null) buffer += '  </rte>\n';
      buffer += '  <rte>\n';
      route = p.segment;
    }
    const ele = p.elevation !== null ? `<ele>${p.elevation}</ele>` : '';
    const time = p.time ? `<time>${isoSeconds(p.time)}</time>` : '';
    buffer += `    <rtept lat="${p.lat}" lon="${p.lon}">${ele}${time}</rtept>\n`;
  }
  if (route !== null) buffer += '  </rte>\n';
  yield `${buffer}</gpx>\n`;
}

export function toGpx(track: Parameters<typeof gpxChunks>[0]): string {
  return [...gpxChunks(track)].join('');
}
