// What is stored of a track, computed from its parsed points before the write (pure: no I/O). Big
// tracks are prepared on the track thread (pool.ts), a FIT file's on the FIT thread that read it.
import type { PackedGpx, ParsedGpx } from '../domain/gpx.ts';
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

export function prepareTrack(gpx: ParsedGpx | PackedGpx): PreparedTrack {
  const { pointData, points, outline } =
    'pointData' in gpx
      ? {
          pointData: compressPoints(gpx.pointData),
          points: () => iteratePoints(gpx.pointData),
          outline: pointsAt(gpx.pointData, thinIndexes(packedCount(gpx.pointData))),
        }
      : { pointData: encodePoints(gpx.points), points: () => gpx.points, outline: thin(gpx.points) };
  const { efforts, movingSeconds } = recordsOf(points);
  return {
    data: {
      ...summarizeTrack(points()),
      name: gpx.name,
      polyline: encodePolyline(outline),
      pointData: pointData as Uint8Array<ArrayBuffer>,
      routePointData: gpx.routePoints.length ? (encodePoints(gpx.routePoints) as Uint8Array<ArrayBuffer>) : null,
      updatedAt: new Date(),
      movingSeconds,
      recordsVersion: RECORDS_VERSION,
      repairs: gpx.repairs.length ? gpx.repairs.join('\n') : null,
    },
    efforts,
    waypoints: gpx.waypoints,
  };
}
