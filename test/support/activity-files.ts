// Activity files as devices write them, built in the test: FIT through Garmin's own SDK encoder, in
// the message order a watch records (file id, device, timer start, records, timer stop, lap, session,
// activity); TCX in Garmin Connect's export layout. The FIT SDK's sample files are not redistributable
// (Garmin's license), so the encoder makes real FIT files instead.
import { Encoder, Profile } from '@garmin/fitsdk';

const SEMICIRCLES = 2 ** 31 / 180;

export interface TestPoint {
  lat: number;
  lon: number;
  elevation: number;
  time: Date;
  heartRate: number;
  cadence: number;
  power?: number;
  distance: number;
}

/** A line of points heading north from (lat, lon), one a second at `speed` m/s. */
export function pointsAlong(count: number, options: { lat?: number; lon?: number; start?: Date; speed?: number } = {}): TestPoint[] {
  const { lat = 47.3769, lon = 8.5417, start = new Date('2025-06-01T06:30:00Z'), speed = 3 } = options;
  return Array.from({ length: count }, (_, i) => ({
    lat: lat + (i * speed) / 111_195,
    lon,
    elevation: 408 + (i % 50) / 5,
    time: new Date(start.getTime() + i * 1000),
    heartRate: 120 + (i % 40),
    cadence: 80 + (i % 10),
    power: 200 + (i % 30),
    distance: i * speed,
  }));
}

export interface FitOptions {
  sport?: string;
  subSport?: string;
  points: TestPoint[];
  calories?: number;
  /** Leave out the session message, as some head units do. */
  noSession?: boolean;
  /** Records without a position (an indoor ride on a trainer). */
  indoor?: boolean;
  fileType?: string;
  /** The indexes of the points that begin a lap after the first (one lap without). */
  lapsAt?: number[];
  /** Laps as written, overriding the ones made of `lapsAt`: [first point, last point] each. */
  lapSpans?: Array<[number, number]>;
  /** What the watch knows of its athlete: zones target and user profile messages. */
  thresholds?: { maxHeartRate?: number; restingHeartRate?: number; functionalThresholdPower?: number };
}

/** A lap message's totals over points[from..to], as a watch writes them. */
function lapTotals(points: TestPoint[], from: number, to: number) {
  const span = points.slice(from, to + 1);
  const seconds = (span.at(-1)!.time.getTime() - span[0]!.time.getTime()) / 1000;
  const average = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  return {
    startTime: span[0]!.time,
    timestamp: span.at(-1)!.time,
    totalElapsedTime: seconds,
    totalTimerTime: seconds,
    totalDistance: span.at(-1)!.distance - span[0]!.distance,
    avgHeartRate: average(span.map((p) => p.heartRate)),
    maxHeartRate: Math.max(...span.map((p) => p.heartRate)),
    ...(span[0]!.power === undefined
      ? {}
      : { avgPower: average(span.map((p) => p.power!)), maxPower: Math.max(...span.map((p) => p.power!)) }),
  };
}

export function fitFile(options: FitOptions): Uint8Array {
  const { points, sport = 'running', subSport = 'generic' } = options;
  const start = points[0]!.time;
  const end = points.at(-1)!.time;
  const seconds = (end.getTime() - start.getTime()) / 1000;
  const distance = points.at(-1)!.distance;
  const encoder = new Encoder();
  encoder.onMesg(Profile.MesgNum.FILE_ID!, {
    type: options.fileType ?? 'activity',
    manufacturer: 'garmin',
    product: 4024,
    timeCreated: start,
    serialNumber: 1234567890,
  });
  encoder.onMesg(Profile.MesgNum.DEVICE_INFO!, { deviceIndex: 'creator', manufacturer: 'garmin', product: 4024, timestamp: start });
  if (options.thresholds) {
    const { maxHeartRate, restingHeartRate, functionalThresholdPower } = options.thresholds;
    if (restingHeartRate !== undefined) encoder.onMesg(Profile.MesgNum.USER_PROFILE!, { restingHeartRate });
    encoder.onMesg(Profile.MesgNum.ZONES_TARGET!, {
      maxHeartRate: maxHeartRate ?? 0xff,
      ...(functionalThresholdPower === undefined ? {} : { functionalThresholdPower }),
    });
  }
  encoder.onMesg(Profile.MesgNum.EVENT!, { timestamp: start, event: 'timer', eventType: 'start' });
  const starts = [0, ...(options.lapsAt ?? [])];
  const spans: Array<[number, number]> =
    options.lapSpans ?? starts.map((from, index) => [from, (starts[index + 1] ?? points.length) - (index + 1 < starts.length ? 0 : 1)]);
  const laps = new Map(spans.map(([from, to], index) => [to, { index, from }]));
  for (const [i, p] of points.entries()) {
    encoder.onMesg(Profile.MesgNum.RECORD!, {
      timestamp: p.time,
      ...(options.indoor ? {} : { positionLat: Math.round(p.lat * SEMICIRCLES), positionLong: Math.round(p.lon * SEMICIRCLES) }),
      altitude: p.elevation,
      heartRate: p.heartRate,
      cadence: p.cadence,
      ...(p.power === undefined ? {} : { power: p.power }),
      distance: p.distance,
      speed: 3,
    });
    // a watch writes a lap message when the lap ends
    const lap = laps.get(i);
    if (lap && spans.length > 1)
      encoder.onMesg(Profile.MesgNum.LAP!, { messageIndex: lap.index, ...lapTotals(points, lap.from, i), sport, subSport });
  }
  encoder.onMesg(Profile.MesgNum.EVENT!, { timestamp: end, event: 'timer', eventType: 'stopAll' });
  const totals = {
    startTime: start,
    totalElapsedTime: seconds,
    totalTimerTime: seconds,
    totalDistance: distance,
    ...(options.calories === undefined ? {} : { totalCalories: options.calories }),
  };
  if (spans.length <= 1) encoder.onMesg(Profile.MesgNum.LAP!, { messageIndex: 0, timestamp: end, ...totals, sport, subSport });
  if (!options.noSession)
    encoder.onMesg(Profile.MesgNum.SESSION!, {
      messageIndex: 0,
      timestamp: end,
      ...totals,
      sport,
      subSport,
      firstLapIndex: 0,
      numLaps: spans.length,
    });
  encoder.onMesg(Profile.MesgNum.ACTIVITY!, { timestamp: end, numSessions: 1, type: 'manual', event: 'activity', eventType: 'stop' });
  return encoder.close();
}

/** A TCX document as Garmin Connect exports one (with Strava's leading spaces when `stravaPadding`). */
export function tcxFile(options: {
  sport?: string;
  points: TestPoint[];
  calories?: number;
  notes?: string;
  stravaPadding?: boolean;
  /** The indexes of the points that begin a lap after the first. */
  lapsAt?: number[];
}): string {
  const { points, sport = 'Running' } = options;
  const start = points[0]!.time.toISOString();
  const starts = [0, ...(options.lapsAt ?? [])];
  const laps = starts
    .map((from, index) => lapOfTcx(points.slice(from, starts[index + 1] ?? points.length), options.calories ?? 0))
    .join('\n');
  return `${options.stravaPadding ? '          ' : ''}<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd" xmlns:ns5="http://www.garmin.com/xmlschemas/ActivityGoals/v1" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:ns2="http://www.garmin.com/xmlschemas/UserProfile/v2" xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ns4="http://www.garmin.com/xmlschemas/ProfileExtension/v1">
  <Activities>
    <Activity Sport="${sport}">
      <Id>${start}</Id>
${laps}
      ${options.notes ? `<Notes>${options.notes}</Notes>` : ''}
      <Creator xsi:type="Device_t"><Name>Forerunner 955</Name><UnitId>3400000000</UnitId><ProductID>4024</ProductID></Creator>
    </Activity>
  </Activities>
  <Author xsi:type="Application_t"><Name>Connect Api</Name><LangID>en</LangID><PartNumber>006-D2449-00</PartNumber></Author>
</TrainingCenterDatabase>
`;
}

/** One `<Lap>` of Garmin Connect's export, with its points (its totals from them; calories as given). */
function lapOfTcx(points: TestPoint[], calories: number): string {
  const start = points[0]!.time.toISOString();
  const seconds = (points.at(-1)!.time.getTime() - points[0]!.time.getTime()) / 1000;
  const trackpoints = points
    .map(
      (p) =>
        `<Trackpoint><Time>${p.time.toISOString()}</Time><Position><LatitudeDegrees>${p.lat}</LatitudeDegrees><LongitudeDegrees>${p.lon}</LongitudeDegrees></Position>` +
        `<AltitudeMeters>${p.elevation}</AltitudeMeters><DistanceMeters>${p.distance}</DistanceMeters><HeartRateBpm><Value>${p.heartRate}</Value></HeartRateBpm>` +
        `<Extensions><ns3:TPX><ns3:Speed>3.0</ns3:Speed><ns3:RunCadence>${p.cadence}</ns3:RunCadence>${p.power === undefined ? '' : `<ns3:Watts>${p.power}</ns3:Watts>`}</ns3:TPX></Extensions></Trackpoint>`,
    )
    .join('\n');
  return `      <Lap StartTime="${start}">
        <TotalTimeSeconds>${seconds}.0</TotalTimeSeconds>
        <DistanceMeters>${points.at(-1)!.distance - points[0]!.distance}</DistanceMeters>
        <MaximumSpeed>3.0</MaximumSpeed>
        <Calories>${calories}</Calories>
        <AverageHeartRateBpm><Value>140</Value></AverageHeartRateBpm>
        <Intensity>Active</Intensity>
        <TriggerMethod>Manual</TriggerMethod>
        <Track>
${trackpoints}
        </Track>
        <Extensions><ns3:LX><ns3:AvgSpeed>3.0</ns3:AvgSpeed></ns3:LX></Extensions>
      </Lap>`;
}

/**
 * The FIT file of a watch whose battery died: the first `kept` bytes of a recording, with a header
 * that declares no data size (the device never closed the file), no session and no final CRC.
 */
export function fitCutShort(points: TestPoint[], kept: number): Uint8Array {
  const whole = fitFile({ points, noSession: true });
  const cut = Uint8Array.from(whole.subarray(0, kept));
  new DataView(cut.buffer).setUint32(4, 0, true);
  cut[12] = 0;
  cut[13] = 0;
  return cut;
}

const FIT_EPOCH_SECONDS = 631_065_600;

/**
 * A FIT activity as older ANT-FS watches write one, by hand (the SDK's encoder never writes this):
 * a file id, one record with its full timestamp, then records with compressed timestamp headers
 * (the low five bits of the time in the record's one-byte header).
 */
export function fitWithCompressedTimestamps(points: TestPoint[]): Uint8Array {
  const bytes: number[] = [];
  const u8 = (...values: number[]) => bytes.push(...values.map((v) => v & 0xff));
  const u32 = (value: number) => u8(value, value >>> 8, value >>> 16, value >>> 24);
  const definition = (local: number, global: number, fields: Array<[number, number, number]>) => {
    u8(0x40 | local, 0, 0, global, global >> 8, fields.length);
    for (const field of fields) u8(...field);
  };
  const seconds = (p: TestPoint) => Math.round(p.time.getTime() / 1000) - FIT_EPOCH_SECONDS;
  // file id: type activity (4), manufacturer garmin (1)
  definition(0, 0, [
    [0, 1, 0x00],
    [1, 2, 0x84],
  ]);
  u8(0, 4, 1, 0);
  // record with timestamp (local 1), and without (local 2): position lat/long, heart rate
  const position: Array<[number, number, number]> = [
    [0, 4, 0x85],
    [1, 4, 0x85],
    [3, 1, 0x02],
  ];
  definition(1, 20, [[253, 4, 0x86], ...position]);
  definition(2, 20, position);
  const writePosition = (p: TestPoint) => {
    u32(Math.round(p.lat * SEMICIRCLES));
    u32(Math.round(p.lon * SEMICIRCLES));
    u8(p.heartRate);
  };
  points.forEach((p, i) => {
    if (i === 0) {
      u8(1);
      u32(seconds(p));
    } else {
      // compressed header: bit 7, local message 2 in bits 5-6, the time's low five bits
      u8(0x80 | (2 << 5) | (seconds(p) & 0x1f));
    }
    writePosition(p);
  });
  const data = Uint8Array.from(bytes);
  const file = new Uint8Array(14 + data.length + 2);
  file.set([14, 0x10, 0x52, 0x08], 0);
  new DataView(file.buffer).setUint32(4, data.length, true);
  file.set([0x2e, 0x46, 0x49, 0x54], 8);
  file.set(data, 14);
  const crc = fitCrcOf(file.subarray(0, 14 + data.length));
  file.set([crc & 0xff, crc >> 8], 14 + data.length);
  return file;
}

/** The FIT CRC-16, written again here so that the test does not check the code with itself. */
function fitCrcOf(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    for (let bit = 0; bit < 8; bit++) {
      const mix = (crc ^ (byte >> bit)) & 1;
      crc >>= 1;
      if (mix) crc ^= 0xa001;
    }
  }
  return crc;
}
