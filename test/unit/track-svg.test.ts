import { describe, expect, it } from 'vitest';
import { elevationProfileSvg, type MapPoint, trackMapSvg } from '../../src/web/track-svg.ts';

const square: MapPoint[] = [
  { lat: 0, lon: 0, elevation: 10, segment: 0 },
  { lat: 0, lon: 0.01, elevation: 20, segment: 0 },
  { lat: 0.01, lon: 0.01, elevation: 40, segment: 0 },
  { lat: 0.01, lon: 0, elevation: 30, segment: 1 },
];

describe('trackMapSvg', () => {
  it('draws north up and east right, each segment apart, inside the frame', () => {
    const svg = String(trackMapSvg(square, { width: 200, height: 200, title: 'Loop <1>' }));
    const paths = [...svg.matchAll(/<path d="([^"]+)"/g)].map((m) => m[1]!);
    expect(paths).toHaveLength(2);
    const coordinates = paths
      .join(' ')
      .match(/[\d.]+ [\d.]+/g)!
      .map((pair) => pair.split(' ').map(Number));
    for (const [x, y] of coordinates) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(200);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(200);
    }
    // start (0,0) is bottom left; the second point (east) is to its right; the third (north) above it
    const [[x0, y0], [x1, y1], [x2, y2]] = coordinates as [number[], number[], number[]];
    expect(x1!).toBeGreaterThan(x0!);
    expect(y1).toBe(y0);
    expect(y2!).toBeLessThan(y1!);
    expect(x2).toBe(x1);
    expect(svg).toContain('<title id="map-title">Loop &lt;1&gt;</title>');
  });

  it('draws nothing for a track without points', () => {
    expect(trackMapSvg([], { title: 'empty' })).toBeNull();
  });
});

describe('elevationProfileSvg', () => {
  it('labels the lowest and highest elevations and the distance', () => {
    const svg = String(elevationProfileSvg(square, { title: 'Profile' }));
    expect(svg).toContain('>40 m</text>');
    expect(svg).toContain('>10 m</text>');
    // 0.01° of longitude then of latitude at the equator: about 2.2 km (the segment break adds nothing)
    expect(svg).toContain('>2.22 km</text>');
    // in feet and miles for a reader who counts in miles
    const imperial = String(elevationProfileSvg(square, { title: 'Profile', units: 'MILES' }));
    expect(imperial).toContain('>131 ft</text>');
    expect(imperial).toContain('>1.38 mi</text>');
  });

  it('draws nothing when the track has no elevations', () => {
    expect(
      elevationProfileSvg(
        square.map((p) => ({ ...p, elevation: null })),
        { title: 'x' },
      ),
    ).toBeNull();
  });
});
