// The one escaper for HTML, SVG and XML.
import { describe, expect, it } from 'vitest';
import { parseGpx, toGpx } from '../../src/domain/gpx.ts';
import { escapeMarkup } from '../../src/domain/markup.ts';

describe('escapeMarkup', () => {
  it('escapes the five characters that can end text or an attribute', () => {
    expect(escapeMarkup(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('gives XML that an XML parser reads back as the same text', async () => {
    const name = `Tom's "loop" <5 km> & back`;
    const parsed = await parseGpx(toGpx({ name, points: [], waypoints: [{ lat: 1, lon: 2, elevation: null, time: null, name }] }));
    expect(parsed.name).toBe(name);
    expect(parsed.waypoints[0]!.name).toBe(name);
  });
});
