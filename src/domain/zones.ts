// Time in heart-rate and power zones, from a track's kept seconds at each reading (analysis.ts) and
// the thresholds that apply: the athlete's own where they set them, else the ones the device wrote in
// the file. Heart-rate zones are five, of the heart-rate reserve when a resting rate is known
// (Karvonen) and of the maximum otherwise; power zones are Coggan's seven, of the functional threshold
// power. The first zone starts at nothing, so that the zones and the seconds without a reading add up
// to the moving time. No I/O.
import type { Analysis, Thresholds } from './analysis.ts';

export type ZoneBasis = 'ATHLETE' | 'DEVICE';

export interface Zone {
  /** 1 for the easiest. */
  zone: number;
  /** Beats a minute or watts, from (inclusive) and to (exclusive); null for the last zone's top. */
  minimum: number;
  maximum: number | null;
  seconds: number;
}

export interface ZoneTimes {
  zones: Zone[];
  /** Moving seconds without a reading. */
  withoutReadingSeconds: number;
  /** Whose thresholds the zones are made of. */
  basis: ZoneBasis;
}

/** Where heart-rate zones 2 to 5 begin, as fractions of the reserve (or of the maximum). */
const HEART_RATE_STEPS = [0.6, 0.7, 0.8, 0.9];
/** Where power zones 2 to 7 begin, as fractions of the functional threshold power. */
const POWER_STEPS = [0.56, 0.76, 0.91, 1.06, 1.21, 1.51];

/** The athlete's thresholds where they set one, else the device's. */
export function thresholdsFor(
  athlete: Thresholds,
  device: Thresholds | null,
): { thresholds: Thresholds; basis: Record<keyof Thresholds, ZoneBasis> } {
  const pick = <K extends keyof Thresholds>(key: K) =>
    (athlete[key] !== null ? ['ATHLETE', athlete[key]] : ['DEVICE', device?.[key] ?? null]) as [ZoneBasis, number | null];
  const [maxBasis, maxHeartRate] = pick('maxHeartRate');
  // a resting rate goes with the maximum it came with: the athlete's maximum with the device's rest could cross
  const restingHeartRate = maxBasis === 'ATHLETE' ? athlete.restingHeartRate : (device?.restingHeartRate ?? null);
  const [powerBasis, thresholdPower] = pick('thresholdPower');
  return {
    thresholds: { maxHeartRate, restingHeartRate, thresholdPower },
    basis: { maxHeartRate: maxBasis, restingHeartRate: maxBasis, thresholdPower: powerBasis },
  };
}

function zonesOf(bounds: number[], counts: Array<[number, number]>): Zone[] {
  const zones: Zone[] = [0, ...bounds].map((minimum, index) => ({ zone: index + 1, minimum, maximum: bounds[index] ?? null, seconds: 0 }));
  for (const [value, seconds] of counts) {
    const zone = zones.findLast((candidate) => value >= candidate.minimum)!;
    zone.seconds += seconds;
  }
  for (const zone of zones) zone.seconds = Math.round(zone.seconds * 10) / 10;
  return zones;
}

/** Time in heart-rate zones; null without a maximum heart rate or without a reading. */
export function heartRateZones(analysis: Analysis, thresholds: Thresholds, basis: ZoneBasis): ZoneTimes | null {
  const { maxHeartRate: max, restingHeartRate: rest } = thresholds;
  if (max === null || analysis.heartRate.length === 0) return null;
  const floor = rest !== null && rest < max ? rest : 0;
  const bounds = HEART_RATE_STEPS.map((step) => Math.round(floor + step * (max - floor)));
  return { zones: zonesOf(bounds, analysis.heartRate), withoutReadingSeconds: analysis.withoutHeartRate, basis };
}

/** Time in power zones; null without a functional threshold power or without a reading. */
export function powerZones(analysis: Analysis, thresholds: Thresholds, basis: ZoneBasis): ZoneTimes | null {
  const ftp = thresholds.thresholdPower;
  if (ftp === null || analysis.power.length === 0) return null;
  const bounds = POWER_STEPS.map((step) => Math.round(step * ftp));
  return { zones: zonesOf(bounds, analysis.power), withoutReadingSeconds: analysis.withoutPower, basis };
}
