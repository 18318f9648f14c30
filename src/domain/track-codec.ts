// Track points packed into one binary value per track. A track is always read whole (to draw it, to
// download it), so a row per point only cost time: 200,000 rows took a second to insert, the packed
// form a few milliseconds. Layout, little-endian, after a 1-byte version and a uint32 count:
// lat f64, lon f64, elevation f32 (NaN = none), time f64 ms (NaN = none), heart rate u16,
// cadence u16 (0xffff = none), segment u16, and since version 2 power u16 (watts, 0xffff = none).
// Version 3, the stored form today, is version 2's points compressed: their bytes regrouped
// by position (every point's first byte, then every second byte...: the high bytes of neighbouring
// coordinates and times are nearly all the same) and deflated: the benchmark's 200,000 points are
// 1.5 MB instead of 7.2. That is what a track's write and read carry through Prisma, several copies
// each (as base64 and as bytes): a 7 MB value took 60 MB more memory to write. Versions 1 and 2,
// written before, are still read.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { GpxPoint } from './track.ts';

/** The version a writer builds as points arrive: readable by index, as preparing a track needs. */
const VERSION = 2;
/** The stored version: VERSION's points regrouped by byte position and deflated. */
const COMPRESSED = 3;
const HEADER = 5;
const STRIDE_V1 = 8 + 8 + 4 + 8 + 2 + 2 + 2;
const STRIDE = STRIDE_V1 + 2;
const NONE16 = 0xffff;

const optional16 = (value: number | null | undefined) => (value == null ? NONE16 : Math.min(value, NONE16 - 1));

function writePoint(view: DataView, at: number, p: GpxPoint): void {
  view.setFloat64(at, p.lat, true);
  view.setFloat64(at + 8, p.lon, true);
  view.setFloat32(at + 16, p.elevation ?? Number.NaN, true);
  view.setFloat64(at + 20, p.time ? p.time.getTime() : Number.NaN, true);
  view.setUint16(at + 28, optional16(p.heartRate), true);
  view.setUint16(at + 30, optional16(p.cadence), true);
  view.setUint16(at + 32, Math.min(p.segment, NONE16), true);
  view.setUint16(at + 34, optional16(p.power), true);
}

function readPoint(view: DataView, at: number, version: number): GpxPoint {
  const elevation = view.getFloat32(at + 16, true);
  const time = view.getFloat64(at + 20, true);
  const heartRate = view.getUint16(at + 28, true);
  const cadence = view.getUint16(at + 30, true);
  const power = version === 1 ? NONE16 : view.getUint16(at + 34, true);
  return {
    lat: view.getFloat64(at, true),
    lon: view.getFloat64(at + 8, true),
    // float32 holds elevations to a centimetre; round off the binary noise
    elevation: Number.isNaN(elevation) ? null : Math.round(elevation * 100) / 100,
    time: Number.isNaN(time) ? null : new Date(time),
    heartRate: heartRate === NONE16 ? null : heartRate,
    cadence: cadence === NONE16 ? null : cadence,
    segment: view.getUint16(at + 32, true),
    power: power === NONE16 ? null : power,
  };
}

/** The stored form of `points` (compressed). */
export function encodePoints(points: readonly GpxPoint[]): Uint8Array {
  return compressPoints(packPoints(points));
}

/** `points` packed as a writer packs them (version 2): quick to make and to read, not compressed. */
export function packPoints(points: readonly GpxPoint[]): Uint8Array {
  const writer = new PackedPointsWriter(points.length);
  for (const p of points) writer.push(p);
  return writer.finish();
}

/**
 * The stored form of a writer's value: its points' bytes regrouped by their position in a point, then
 * deflated (fastest level: on 200,000 points, 33 ms for 1.48 MB; the default level took 54 ms for 1.26).
 */
export function compressPoints(bytes: Uint8Array): Uint8Array {
  const packed = layout(bytes);
  if (!packed || packed.version !== VERSION) throw new Error('track points: only a value of the writer is compressed');
  const { count } = packed;
  const grouped = new Uint8Array(count * STRIDE);
  for (let i = 0; i < count; i++) {
    const from = HEADER + i * STRIDE;
    for (let b = 0; b < STRIDE; b++) grouped[b * count + i] = bytes[from + b]!;
  }
  const deflated = deflateRawSync(grouped, { level: 1 });
  const stored = new Uint8Array(HEADER + deflated.byteLength);
  const view = new DataView(stored.buffer);
  view.setUint8(0, COMPRESSED);
  view.setUint32(1, count, true);
  stored.set(deflated, HEADER);
  return stored;
}

/**
 * A compressed value's points as a writer's value (version 2), the first `limit` of them (a route's
 * start reads one); a value of another version as it is.
 */
function expanded(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.byteLength < HEADER || bytes[0] !== COMPRESSED) return bytes;
  const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, true);
  let grouped: Buffer;
  try {
    // never more than the count says: a damaged value cannot make this any larger
    grouped = inflateRawSync(bytes.subarray(HEADER), { maxOutputLength: Math.max(1, count * STRIDE) });
  } catch (error) {
    throw new Error(`track points: the compressed value cannot be read (${(error as Error).message})`);
  }
  if (grouped.byteLength !== count * STRIDE) throw new Error('track points: the compressed value does not hold its count of points');
  const kept = Math.min(count, limit);
  const points = new Uint8Array(HEADER + kept * STRIDE);
  points[0] = VERSION;
  points.set(bytes.subarray(1, HEADER), 1);
  for (let b = 0; b < STRIDE; b++) {
    const from = b * count;
    for (let i = 0; i < kept; i++) points[HEADER + i * STRIDE + b] = grouped[from + i]!;
  }
  return points;
}

/**
 * Points packed as they arrive, so that a long upload never holds an object for each of them (200,000
 * parsed points took about 30 MB as objects and take 7 MB here).
 */
export class PackedPointsWriter {
  private bytes: Uint8Array;
  private view: DataView;
  private count = 0;

  constructor(expected = 1024) {
    this.bytes = new Uint8Array(HEADER + expected * STRIDE);
    this.view = new DataView(this.bytes.buffer);
  }

  get length(): number {
    return this.count;
  }

  push(p: GpxPoint): void {
    const at = HEADER + this.count * STRIDE;
    if (at + STRIDE > this.bytes.byteLength) {
      const grown = new Uint8Array(HEADER + Math.max(1024, this.count * 2) * STRIDE);
      grown.set(this.bytes);
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    writePoint(this.view, at, p);
    this.count += 1;
  }

  /** The packed value, exactly as long as its points (version 2: compressPoints makes the stored form). */
  finish(): Uint8Array {
    this.view.setUint8(0, VERSION);
    this.view.setUint32(1, this.count, true);
    const length = HEADER + this.count * STRIDE;
    return length === this.bytes.byteLength ? this.bytes : this.bytes.slice(0, length);
  }
}

/** Where the points of a packed value are, or null when it holds none. */
function layout(stored: Uint8Array | null, limit = Number.POSITIVE_INFINITY) {
  if (!stored || stored.byteLength < HEADER) return null;
  const bytes = expanded(stored, limit);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== 1 && version !== VERSION) throw new Error(`track points: unknown format version ${version}`);
  const stride = version === 1 ? STRIDE_V1 : STRIDE;
  const count = Math.min(view.getUint32(1, true), limit, Math.floor((bytes.byteLength - HEADER) / stride));
  return { view, version, stride, count };
}

/** The points, or the first `limit` of them. */
export function decodePoints(bytes: Uint8Array | null, limit = Number.POSITIVE_INFINITY): GpxPoint[] {
  const packed = layout(bytes, limit);
  if (!packed) return [];
  const points: GpxPoint[] = new Array(packed.count);
  for (let i = 0; i < packed.count; i++) points[i] = readPoint(packed.view, HEADER + i * packed.stride, packed.version);
  return points;
}

/** How many points a packed value holds. */
export function packedCount(bytes: Uint8Array | null): number {
  return layout(bytes)?.count ?? 0;
}

/** The points one at a time, each a new object that nothing else holds: read once, they cost no lasting memory. */
export function* iteratePoints(bytes: Uint8Array | null): Generator<GpxPoint> {
  const packed = layout(bytes);
  if (!packed) return;
  for (let i = 0; i < packed.count; i++) yield readPoint(packed.view, HEADER + i * packed.stride, packed.version);
}

/** The points at these indexes (each below the count). */
export function pointsAt(bytes: Uint8Array, indexes: readonly number[]): GpxPoint[] {
  const packed = layout(bytes);
  if (!packed) return [];
  return indexes.map((i) => readPoint(packed.view, HEADER + i * packed.stride, packed.version));
}
