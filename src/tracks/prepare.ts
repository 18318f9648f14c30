// What is stored of a track, computed from its parsed points before the write (pure: no I/O). Big
// tracks are prepared on the track thread (pool.ts), a FIT file's on the FIT thread that read it.
import { type Analysis, analyzeTrack, type Recorded } from '../domain/analysis.ts';
import type { GpxPoint, PackedGpx, ParsedGpx } from '../domain/gpx.ts';
import { RECORDS_VERSION, type TrackEfforts, trackEfforts } from '../domain/records.ts';
import { encodePolyline, summarizeTrack, type TrackPointInput, type TrackSummary, thin, thinIndexes } from '../domain/track.ts';
import { compressPoints, encodePoints, iteratePoints, packedCount, pointsAt } from '../domain/track-codec.ts';

/** The Track row's columns, as prepared (the owner's id is added by the write). */
export interface PreparedTrackData extends TrackSummary {
  name: string | null;
  polyline: string;
  pointData: Uint8Array<ArrayBuffer>;
  routePointData: Uint8Array<ArrayBuffer> | null;
  updatedAt: Date;
  movingSeconds: number | null;
  recordsVersion: number;
  repairs: string | null;
  recorded: string | null;
  analysis: string | null;
}

/**
 * What is stored of a parsed track: its summary, outline, records and packed points, computed before
 * the write's transaction (200,000 points take 85-130 ms, which held SQLite's one writer). An upload's
 * points arrive packed (parsePackedGpx) and are read back one at a time, never all as objects; what
 * is stored of them is their compressed form (track-codec.ts).
 */
export interface PreparedTrack {
  readonly data: PreparedTrackData;
  readonly efforts: ReturnType<typeof trackEfforts>['efforts'];
  readonly powerEfforts: Analysis['powerEfforts'];
  readonly waypoints: ParsedGpx['waypoints'];
}

/**
 * A track's records; computing them never fails an upload (a file with odd times once made a value
 * PostgreSQL refused): should they fail, the track is stored without them.
 */
function recordsOf(points: () => Iterable<TrackPointInput>): TrackEfforts {
  try {
    return trackEfforts(points());
  } catch {
    return { efforts: [], movingSeconds: null };
  }
}

/** A track's analysis; like its records, it never fails an upload: should it fail, the track is stored without it. */
export function analysisOf(
  points: readonly GpxPoint[] | (() => Iterable<GpxPoint>),
  recorded: Recorded | null,
  efforts: TrackEfforts['efforts'],
): Analysis | null {
  try {
    return analyzeTrack(points, recorded, { efforts });
  } catch {
    return null;
  }
}

/**
 * Points stored of a track at most. A file with more (a 16 MB FIT of 900,000 records, a GPX of bare
 * points) has its track thinned evenly to this many for storing, first and last kept; its totals and
 * records are the whole file's. Everything stored is served: as GPX, 200,000 points are 19 MB, made
 * in about a second on the track thread, once a version; 900,000 took 5-8 s and ran out of its memory.
 */
export const MAX_STORED_POINTS = 200_000;

/** A parsed track, with what its file said beyond its points (an activity file's laps and thresholds). */
export type TrackSource = (ParsedGpx | PackedGpx) & { recorded?: Recorded | null };

export function prepareTrack(gpx: TrackSource): PreparedTrack {
  const count = 'pointData' in gpx ? packedCount(gpx.pointData) : gpx.points.length;
  const thinned = count > MAX_STORED_POINTS;
  const { pointData, points, outline } =
    'pointData' in gpx
      ? {
          pointData: thinned ? encodePoints(pointsAt(gpx.pointData, thinIndexes(count, MAX_STORED_POINTS))) : compressPoints(gpx.pointData),
          points: () => iteratePoints(gpx.pointData),
          outline: pointsAt(gpx.pointData, thinIndexes(count)),
        }
      : { pointData: encodePoints(thin(gpx.points, MAX_STORED_POINTS)), points: () => gpx.points, outline: thin(gpx.points) };
  // the laps and thresholds left out as unsound are said where the file's repairs are
  const said = [...gpx.repairs, ...(gpx.recorded?.notes ?? [])];
  const repairs = thinned ? [...said, `${count} points thinned evenly to ${MAX_STORED_POINTS} for storing`] : said;
  const { efforts, movingSeconds } = recordsOf(points);
  const analysis = analysisOf(points, gpx.recorded ?? null, efforts);
  return {
    data: {
      ...summarizeTrack(points()),
      // the points stored, which every read of them serves
      pointCount: Math.min(count, MAX_STORED_POINTS),
      name: gpx.name,
      polyline: encodePolyline(outline),
      pointData: pointData as Uint8Array<ArrayBuffer>,
      routePointData: gpx.routePoints.length ? (encodePoints(gpx.routePoints) as Uint8Array<ArrayBuffer>) : null,
      updatedAt: new Date(),
      movingSeconds,
      recordsVersion: RECORDS_VERSION,
      repairs: repairs.length ? repairs.join('\n') : null,
      recorded: gpx.recorded ? JSON.stringify(gpx.recorded) : null,
      analysis: analysis && JSON.stringify(analysis),
    },
    efforts,
    powerEfforts: analysis?.powerEfforts ?? [],
    waypoints: gpx.waypoints,
  };
}
