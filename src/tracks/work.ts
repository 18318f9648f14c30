// What is computed from a stored track's packed points for a reader: its GPX document, an outline, its
// points, and what a viewer that its owner hides part of from is shown of it. Pure functions of the
// packed bytes and the privacy settings that apply (null: nothing hidden), run in place for small
// tracks and on the track worker for big ones (pool.ts). No I/O.

import { type Analysis, analyzeTrack, type Recorded } from '../domain/analysis.ts';
import { type Point, stepMeters } from '../domain/geo.ts';
import { type GpxPoint, type GpxWaypoint, type PackedGpx, toGpx } from '../domain/gpx.ts';
import { type HiddenParts, hiddenParts, type PrivacySettings, trackEnds, visiblePoints } from '../domain/privacy-zones.ts';
import { trackEfforts } from '../domain/records.ts';
import { encodePolyline, summarizeTrack, type TrackSummary, thin, thinIndexes } from '../domain/track.ts';
import { decodePoints, packedCount, pointsAt } from '../domain/track-codec.ts';
import { type PreparedTrack, prepareTrack } from './prepare.ts';

export type TrackWork =
  | {
      kind: 'gpx';
      pointData: Uint8Array | null;
      routePointData: Uint8Array | null;
      name: string | null;
      waypoints: GpxWaypoint[];
      /** The waypoints kept are those the settings do not hide (decided by the caller, who has the ends). */
      settings: PrivacySettings | null;
    }
  | { kind: 'outline'; pointData: Uint8Array | null; settings: PrivacySettings | null; max: number }
  | { kind: 'points'; pointData: Uint8Array | null; settings: PrivacySettings | null; first: number }
  | { kind: 'shown'; pointData: Uint8Array | null; settings: PrivacySettings }
  | { kind: 'shownFigures'; pointData: Uint8Array | null; settings: PrivacySettings }
  | { kind: 'hiddenParts'; pointData: Uint8Array | null; settings: PrivacySettings }
  | { kind: 'prepare'; gpx: PackedGpx }
  /** The analysis of the points shown (laps of those points alone), for a viewer the owner hides part from. */
  | { kind: 'analysis'; pointData: Uint8Array | null; settings: PrivacySettings; recorded: Recorded | null }
  | { kind: 'streams'; pointData: Uint8Array | null; settings: PrivacySettings | null; max: number };

/** A track's points as arrays, thinned evenly, for a chart: what Strava's streams give. */
export interface Streams {
  /** Points of the track (shown), before thinning. */
  pointCount: number;
  /** Seconds after the first timed point; null for a point without a time. */
  time: Array<number | null>;
  /** Meters along the track, within segments. */
  distance: number[];
  lat: number[];
  lon: number[];
  elevation: Array<number | null>;
  heartRate: Array<number | null>;
  cadence: Array<number | null>;
  power: Array<number | null>;
  /** Meters a second from the point before (null for the first, or without times). */
  speed: Array<number | null>;
}

/** What a viewer is shown of a track that its owner hides part of from them. */
export interface Shown {
  /** The figures of the points shown: what anyone but the owner is told of the track. */
  summary: TrackSummary;
  /** The whole track's first and last points, where its hidden ends reach from (domain hidesPlace). */
  ends: Point[];
  /** The points shown, thinned to 500, as a polyline. */
  polyline: string;
  /** The first point shown (a route's `start`). */
  start: Point | null;
}

/**
 * The figures of the part of a track shown to anyone but its owner, which their totals and records are
 * made of (db/shown-figures.ts): distance, moving time and climb of the points shown, and where the
 * shown part's timed points begin and end, in milliseconds after the whole track's first timed point
 * (the clock of a best effort's startOffsetMs); null when no timed point is shown.
 */
export interface ShownFigures {
  meters: number;
  movingSeconds: number | null;
  gain: number;
  fromMs: number | null;
  toMs: number | null;
}

function streamsOf(points: GpxPoint[], max: number): Streams {
  const along: number[] = [];
  for (let i = 0; i < points.length; i++) {
    along.push((along[i - 1] ?? 0) + stepMeters(points[i - 1] ?? null, points[i]!));
  }
  const clock = points.map(timeOf).find((time) => time !== null) ?? null;
  const picked = thinIndexes(points.length, max);
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  const streams: Streams = {
    pointCount: points.length,
    time: [],
    distance: [],
    lat: [],
    lon: [],
    elevation: [],
    heartRate: [],
    cadence: [],
    power: [],
    speed: [],
  };
  let previous: number | null = null;
  for (const index of picked) {
    const point = points[index]!;
    const time = timeOf(point);
    streams.time.push(time === null || clock === null ? null : (time - clock) / 1000);
    streams.distance.push(round(along[index]!, 1));
    streams.lat.push(point.lat);
    streams.lon.push(point.lon);
    streams.elevation.push(point.elevation);
    streams.heartRate.push(point.heartRate);
    streams.cadence.push(point.cadence);
    streams.power.push(point.power ?? null);
    // over the stretch since the point before it in the stream: a thinned stream's speed is its stretches' average
    const before = previous === null ? null : points[previous]!;
    const seconds = before && time !== null && timeOf(before) !== null ? (time - timeOf(before)!) / 1000 : null;
    streams.speed.push(seconds !== null && seconds > 0 ? round((along[index]! - along[previous!]!) / seconds, 2) : null);
    previous = index;
  }
  return streams;
}

export type TrackWorkResult<K extends TrackWork['kind']> = K extends 'gpx'
  ? Uint8Array
  : K extends 'outline' | 'points'
    ? GpxPoint[]
    : K extends 'shown'
      ? Shown
      : K extends 'shownFigures'
        ? ShownFigures
        : K extends 'prepare'
          ? PreparedTrack
          : K extends 'analysis'
            ? Analysis
            : K extends 'streams'
              ? Streams
              : HiddenParts;

/** The points a viewer is shown: all of them without settings. */
const shownPoints = (pointData: Uint8Array | null, settings: PrivacySettings | null) =>
  settings ? visiblePoints(decodePoints(pointData), settings) : decodePoints(pointData);

export function doTrackWork<W extends TrackWork>(work: W): TrackWorkResult<W['kind']> {
  return run(work) as TrackWorkResult<W['kind']>;
}

/** The time of a point in milliseconds, or null when it has none. */
const timeOf = (point: { time: Date | null }) => {
  const time = point.time?.getTime() ?? Number.NaN;
  return Number.isFinite(time) ? time : null;
};

function shownFigures(pointData: Uint8Array | null, settings: PrivacySettings): ShownFigures {
  const all = decodePoints(pointData);
  const points = visiblePoints(all, settings);
  const summary = summarizeTrack(points);
  const clock = all.map(timeOf).find((time) => time !== null) ?? null;
  const times = points.map(timeOf).filter((time) => time !== null);
  const shownTimes = clock === null || times.length === 0 ? null : { from: times[0]! - clock, to: times.at(-1)! - clock };
  return {
    meters: summary.distanceMeters,
    movingSeconds: trackEfforts(points).movingSeconds,
    gain: summary.elevationGain,
    fromMs: shownTimes?.from ?? null,
    toMs: shownTimes?.to ?? null,
  };
}

function run(work: TrackWork): Uint8Array | GpxPoint[] | Shown | ShownFigures | HiddenParts | PreparedTrack | Analysis | Streams {
  switch (work.kind) {
    case 'gpx': {
      const gpx = toGpx({
        name: work.name,
        points: shownPoints(work.pointData, work.settings),
        routePoints: shownPoints(work.routePointData, work.settings),
        waypoints: work.waypoints,
      });
      return Buffer.from(gpx, 'utf8');
    }
    case 'outline': {
      const max = Math.max(2, Math.min(work.max, 2000));
      // without settings only the points of the outline are read, not the whole track
      if (!work.settings && work.pointData) return pointsAt(work.pointData, thinIndexes(packedCount(work.pointData), max));
      return thin(shownPoints(work.pointData, work.settings), max);
    }
    case 'points':
      return work.settings
        ? visiblePoints(decodePoints(work.pointData), work.settings).slice(0, work.first)
        : decodePoints(work.pointData, work.first);
    case 'shown': {
      const all = decodePoints(work.pointData);
      const points = visiblePoints(all, work.settings);
      const first = points[0];
      return {
        summary: summarizeTrack(points),
        ends: trackEnds(all),
        polyline: encodePolyline(thin(points, 500)),
        start: first ? { lat: first.lat, lon: first.lon } : null,
      };
    }
    case 'shownFigures':
      return shownFigures(work.pointData, work.settings);
    case 'hiddenParts':
      return hiddenParts(decodePoints(work.pointData), work.settings);
    case 'prepare':
      return prepareTrack(work.gpx);
    case 'analysis':
      return analyzeTrack(visiblePoints(decodePoints(work.pointData), work.settings), work.recorded, { trustDevice: false });
    case 'streams':
      return streamsOf(shownPoints(work.pointData, work.settings), Math.max(2, work.max));
  }
}
