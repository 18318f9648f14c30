// What a workout's track tells beyond its totals (domain/analysis.ts): laps, splits, time in zones,
// best power and streams for charts, and the thresholds an athlete sets for zones. The owner, and
// anyone the owner hides nothing of the track from, is answered from the analysis kept with the track
// (no point decoded); anyone else from the points they are shown, as every other figure of a track.
import type { Analysis, Lap, Recorded, Split } from '../../domain/analysis.ts';
import { RECORD_DISTANCES } from '../../domain/records.ts';
import { METERS_PER_MILE } from '../../domain/units.ts';
import { heartRateZones, powerZones, thresholdsFor, type ZoneTimes } from '../../domain/zones.ts';
import { KeptWork, trackWork } from '../../tracks/pool.ts';
import type { Streams } from '../../tracks/work.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { ownColumn, personById } from '../loaders.ts';
import { ownerOfTrack, pointCountOf, pointDataOf, trackPrivacy } from '../privacy.ts';
import { UnitPreferenceEnum } from './enums.ts';
import { sizeArgument } from './errors.ts';
import { TrackRef } from './route.ts';
import { RecordDistanceEnum } from './stats.ts';

/** A stream's points at most: enough for any chart, and a bounded answer. */
const MAX_STREAM_POINTS = 10_000;
/** Streams kept, in values: about 200 charts of 1,000 points (KeptWork: made once a track version). */
const keptStreams = new KeptWork<Streams>(2_000_000, (streams) => streams.time.length * 10);

const LapRef = builder.objectRef<Lap>('Lap').implement({
  description:
    'A lap as the device recorded it (a FIT lap message, a TCX `<Lap>`): its figures are the device’s where it wrote them, else those of its points. To anyone the owner hides part of the track from, the figures of the points shown.',
  fields: (t) => ({
    startOffsetSeconds: t.exposeFloat('startOffsetSeconds', { description: 'Seconds after the track’s first timed point.' }),
    elapsedSeconds: t.exposeFloat('elapsedSeconds', { description: 'Seconds from its start to its end, pauses included.' }),
    movingSeconds: t.exposeFloat('movingSeconds', { description: 'Seconds moving (the device’s timer time when it wrote one).' }),
    distanceMeters: t.exposeFloat('distanceMeters', { description: 'Meters.' }),
    averageHeartRate: t.exposeInt('averageHeartRate', { nullable: true, description: 'Beats a minute.' }),
    maxHeartRate: t.exposeInt('maxHeartRate', { nullable: true, description: 'Beats a minute.' }),
    averageCadence: t.exposeInt('averageCadence', { nullable: true, description: 'Steps or revolutions a minute.' }),
    averagePower: t.exposeInt('averagePower', { nullable: true, description: 'Watts.' }),
    maxPower: t.exposeInt('maxPower', { nullable: true, description: 'Watts.' }),
    elevationGain: t.exposeFloat('elevationGain', { description: 'Meters climbed.' }),
  }),
});

type ShownSplit = Split & { unitMeters: number; last: boolean };

const SplitRef = builder.objectRef<ShownSplit>('Split').implement({
  description: 'A kilometre or a mile of a track, in order; the last one partial. Their distances and times add up to the track’s.',
  fields: (t) => ({
    distanceMeters: t.exposeFloat('distanceMeters', { description: 'Meters: a whole unit, but for the last split.' }),
    elapsedSeconds: t.exposeFloat('elapsedSeconds', { description: 'Seconds, pauses included.' }),
    movingSeconds: t.exposeFloat('movingSeconds', { description: 'Seconds moving.' }),
    paceSeconds: t.float({
      nullable: true,
      description: 'Moving seconds a whole unit (a kilometre or a mile) takes at this split’s pace; null for a split without distance.',
      resolve: (split) =>
        split.distanceMeters > 0 ? Math.round((split.movingSeconds / split.distanceMeters) * split.unitMeters * 10) / 10 : null,
    }),
    elevationChange: t.exposeFloat('elevationChange', {
      nullable: true,
      description: 'Meters up from its start to its end (below 0: down); null without elevations.',
    }),
    averageHeartRate: t.exposeInt('averageHeartRate', { nullable: true, description: 'Beats a minute, over its time.' }),
    partial: t.boolean({
      description: 'Whether it is the last split, shorter than a unit.',
      resolve: (split) => split.last && split.distanceMeters < split.unitMeters - 0.5,
    }),
  }),
});

const ThresholdSourceEnum = builder.enumType('ThresholdSource', {
  description: 'Whose thresholds zones are made of.',
  values: {
    ATHLETE: { value: 'ATHLETE', description: 'The athlete’s own (`updateProfile`).' },
    DEVICE: { value: 'DEVICE', description: 'The ones the workout’s device wrote in its file.' },
  } as const,
});

const ZoneRef = builder.objectRef<ZoneTimes['zones'][number]>('Zone').implement({
  description: 'A heart-rate or power zone and the moving seconds spent in it.',
  fields: (t) => ({
    number: t.exposeInt('zone', { description: 'Its number: 1 for the easiest.' }),
    minimum: t.exposeInt('minimum', { description: 'Beats a minute or watts from which it counts (0 for zone 1).' }),
    maximum: t.exposeInt('maximum', {
      nullable: true,
      description: 'Beats a minute or watts up to which it counts (exclusive); null for the top zone.',
    }),
    seconds: t.exposeFloat('seconds', { description: 'Moving seconds in it.' }),
  }),
});

const ZoneTimesRef = builder.objectRef<ZoneTimes>('ZoneTimes').implement({
  description: 'Time in zones: the zones and the moving seconds without a reading add up to the moving time.',
  fields: (t) => ({
    zones: t.field({ type: [ZoneRef], description: 'The zones, easiest first.', resolve: (times) => times.zones }),
    withoutReadingSeconds: t.exposeFloat('withoutReadingSeconds', { description: 'Moving seconds without a reading.' }),
    basis: t.field({ type: ThresholdSourceEnum, description: 'Whose thresholds the zones are made of.', resolve: (times) => times.basis }),
  }),
});

const PowerEffortRef = builder.objectRef<Analysis['powerEfforts'][number]>('PowerEffort').implement({
  description: 'The best average power held over a span of the track (pauses credit nothing).',
  fields: (t) => ({
    seconds: t.exposeInt('seconds', { description: 'The span: 60, 300 or 1200 seconds.' }),
    watts: t.exposeInt('watts', { description: 'Average watts over it.' }),
    startOffsetSeconds: t.float({
      description: 'Where it began, in seconds after the track’s first timed point (of the points shown).',
      resolve: (effort) => effort.startOffsetMs / 1000,
    }),
  }),
});

const TrackEffortRef = builder.objectRef<Analysis['bestEfforts'][number]>('TrackEffort').implement({
  description: 'The fastest stretch of a record distance inside the track: what the person’s running records are made of.',
  fields: (t) => ({
    distance: t.expose('distance', { type: RecordDistanceEnum, description: 'The distance.' }),
    meters: t.float({ description: 'The same distance in meters.', resolve: (effort) => RECORD_DISTANCES[effort.distance] }),
    seconds: t.exposeFloat('seconds', { description: 'Elapsed seconds, to the millisecond.' }),
    startOffsetSeconds: t.float({
      description: 'Where it began, in seconds after the track’s first timed point (of the points shown).',
      resolve: (effort) => effort.startOffsetMs / 1000,
    }),
  }),
});

const StreamsRef = builder.objectRef<Streams>('TrackStreams').implement({
  description:
    'A track’s points as arrays of one kind each, all of one length and in step, thinned evenly to the resolution asked (first and last kept): what a chart draws in one request. To anyone the owner hides part of the track from, of the points shown.',
  fields: (t) => ({
    pointCount: t.exposeInt('pointCount', { description: 'Points of the track (shown) before thinning.' }),
    time: t.exposeFloatList('time', {
      nullable: { list: false, items: true },
      description: 'Seconds after the first timed point; null for a point without a time.',
    }),
    distance: t.exposeFloatList('distance', { description: 'Meters along the track, within its segments.' }),
    lat: t.exposeFloatList('lat', { description: 'Degrees north.' }),
    lon: t.exposeFloatList('lon', { description: 'Degrees east.' }),
    elevation: t.exposeFloatList('elevation', { nullable: { list: false, items: true }, description: 'Meters above sea level.' }),
    heartRate: t.exposeIntList('heartRate', { nullable: { list: false, items: true }, description: 'Beats a minute.' }),
    cadence: t.exposeIntList('cadence', { nullable: { list: false, items: true }, description: 'Steps or revolutions a minute.' }),
    power: t.exposeIntList('power', { nullable: { list: false, items: true }, description: 'Watts.' }),
    speed: t.exposeFloatList('speed', {
      nullable: { list: false, items: true },
      description: 'Meters a second since the point before it in the stream; null for the first and without times.',
    }),
  }),
});

type AnalysedTrack = { id: number; analysis: string | null; recorded: string | null; ownerId?: number; pointCount?: number };

// one analysis a track object: its fields ask for it in turn
const analyses = new WeakMap<object, Promise<Analysis | null>>();

/** The track's analysis as the viewer may read it: kept, or of the points shown to them. */
function analysisOf(context: Context, track: AnalysedTrack): Promise<Analysis | null> {
  let analysis = analyses.get(track);
  if (!analysis) {
    analysis = (async () => {
      const settings = await trackPrivacy(context, track);
      if (!settings) return track.analysis ? (JSON.parse(track.analysis) as Analysis) : null;
      const recorded = track.recorded ? (JSON.parse(track.recorded) as Recorded) : null;
      const pointData = await pointDataOf(context, track);
      return trackWork({ kind: 'analysis', pointData, settings, recorded }, await pointCountOf(context, track));
    })();
    analyses.set(track, analysis);
  }
  return analysis;
}

/** The thresholds the track's zones are made of: its owner's, else its device's. */
async function zoneThresholds(context: Context, track: AnalysedTrack, analysis: Analysis) {
  const owner = await personById(context, await ownerOfTrack(context, track));
  return thresholdsFor(
    { maxHeartRate: owner.maxHeartRate, restingHeartRate: owner.restingHeartRate, thresholdPower: owner.thresholdPower },
    analysis.thresholds,
  );
}

/** Time in the track's heart-rate or power zones, of the thresholds that apply (zones.ts). */
async function zonesOf(context: Context, track: AnalysedTrack, kind: 'heartRate' | 'power'): Promise<ZoneTimes | null> {
  const analysis = await analysisOf(context, track);
  if (!analysis) return null;
  const { thresholds, basis } = await zoneThresholds(context, track, analysis);
  return kind === 'heartRate'
    ? heartRateZones(analysis, thresholds, basis.maxHeartRate)
    : powerZones(analysis, thresholds, basis.thresholdPower);
}

const ANALYSED = { analysis: true, recorded: true, pointCount: true } as const;

builder.prismaObjectFields(TrackRef, (t) => ({
  laps: t.field({
    type: [LapRef],
    description:
      'The laps the device recorded (FIT and TCX files); empty for a GPX upload. A lap left out as unsound (overlapping another, ending before it starts) is named in `repairs`.',
    select: ANALYSED,
    resolve: async (track, _args, context) => (await analysisOf(context, track))?.laps ?? [],
  }),
  splits: t.field({
    type: [SplitRef],
    description: 'The track cut every kilometre or every mile, the last split partial; empty for a track without times.',
    args: {
      units: t.arg({ type: UnitPreferenceEnum, required: false, description: 'Kilometres or miles; by default the athlete’s own units.' }),
    },
    select: ANALYSED,
    resolve: async (track, args, context) => {
      const analysis = await analysisOf(context, track);
      if (!analysis) return [];
      const units = args.units ?? (await personById(context, await ownerOfTrack(context, track))).units;
      const [splits, unitMeters] = units === 'kilometers' ? [analysis.splits.kilometers, 1000] : [analysis.splits.miles, METERS_PER_MILE];
      return splits.map((split, index) => ({ ...split, unitMeters, last: index === splits.length - 1 }));
    },
  }),
  heartRateZones: t.field({
    type: ZoneTimesRef,
    nullable: true,
    description:
      'Moving time in five heart-rate zones: of the reserve between resting and maximum heart rate when a resting one is known (Karvonen: zones from 60, 70, 80 and 90%), else of the maximum. The athlete’s thresholds (`updateProfile`), else the device’s; null without a maximum or without heart rate.',
    select: ANALYSED,
    resolve: (track, _args, context) => zonesOf(context, track, 'heartRate'),
  }),
  powerZones: t.field({
    type: ZoneTimesRef,
    nullable: true,
    description:
      'Moving time in Coggan’s seven power zones of the functional threshold power (from 56, 76, 91, 106, 121 and 151%): the athlete’s (`updateProfile`), else the device’s; null without one or without power.',
    select: ANALYSED,
    resolve: (track, _args, context) => zonesOf(context, track, 'power'),
  }),
  powerEfforts: t.field({
    type: [PowerEffortRef],
    description: 'The best average power over 1, 5 and 20 minutes that the track lasts; empty without power.',
    select: ANALYSED,
    resolve: async (track, _args, context) => (await analysisOf(context, track))?.powerEfforts ?? [],
  }),
  bestEfforts: t.field({
    type: [TrackEffortRef],
    description: 'The fastest time over each record distance (1 km to the marathon) the track covers, shortest first; empty without times.',
    select: ANALYSED,
    resolve: async (track, _args, context) => (await analysisOf(context, track))?.bestEfforts ?? [],
  }),
  movingSeconds: t.float({
    nullable: true,
    description: 'Seconds moving (faster than 0.5 m/s between timed points); null for a track without times.',
    select: ANALYSED,
    resolve: async (track, _args, context) => {
      const analysis = await analysisOf(context, track);
      return analysis && analysis.splits.kilometers.length > 0 ? analysis.movingSeconds : null;
    },
  }),
  streams: t.field({
    type: StreamsRef,
    description: `The points as arrays for charts (time, distance, position, elevation, heart rate, cadence, power, speed), thinned evenly to \`resolution\` points (2 to ${MAX_STREAM_POINTS.toLocaleString('en')}, else an error naming \`resolution\`).`,
    args: { resolution: t.arg.int({ required: false, defaultValue: 1000, description: 'At most this many points.' }) },
    // not the packed points: a kept answer (the usual case for a big track) needs none of their megabytes
    select: { pointCount: true, updatedAt: true },
    resolve: async (track, args, context) => {
      const max = sizeArgument('resolution', args.resolution ?? 1000, 2, MAX_STREAM_POINTS);
      const settings = await trackPrivacy(context, track);
      return keptStreams.get(`${track.id}:${track.updatedAt.getTime()}:${max}:${settings ? JSON.stringify(settings) : ''}`, async () =>
        trackWork({ kind: 'streams', pointData: await pointDataOf(context, track), settings, max }, track.pointCount),
      );
    },
  }),
}));

/** A threshold only its person reads: null for anyone else. */
const ownThreshold = (column: 'maxHeartRate' | 'restingHeartRate' | 'thresholdPower', description: string) =>
  builder.prismaObjectField('Person', column, (t) =>
    t.int({
      nullable: true,
      description: `${description} Only a person sees their own; null for anyone else, and when not set.`,
      resolve: (person, _args, context) => ownColumn(context, person, column),
    }),
  );

ownThreshold('maxHeartRate', 'Beats a minute that their heart-rate zones are made of.');
ownThreshold('restingHeartRate', 'Beats a minute at rest: with it, heart-rate zones are of the reserve.');
ownThreshold('thresholdPower', 'Functional threshold power in watts that their power zones are made of.');
