// The pages' scripts, served by Milepost itself (never a CDN). Maps: Leaflet, from its npm package, and a
// few lines of ours that turn each figure marked `data-map` into a map of its lines, points and (for
// their owner) privacy zones, on the configured tiles; without script the figure keeps its SVG drawing.
// The entry page: graphql-sse's browser client and our entry script (web/entry-script.ts). Names carry
// the version, so each file is cached for a year.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Response } from '@whatwg-node/fetch';
import type { Router } from '../http/router.ts';
import { ENTRY_SCRIPT } from './entry-script.ts';

/** What a page's maps are drawn from: a JSON block in the page, never an inline script. */
export interface MapData {
  tiles: string;
  attribution: string;
  maps: Record<string, MapSpec>;
}

export interface MapSpec {
  /** What the map shows, for those who cannot see it. */
  title: string;
  /** Lines as [lat, lon] pairs, one per segment. */
  lines: Array<Array<[number, number]>>;
  /** Points to mark: [lat, lon, label, link]. */
  points?: Array<[number, number, string, string | null]>;
  /** Privacy zones, [lat, lon, radius in metres]: only ever the viewer's own. */
  zones?: Array<[number, number, number]>;
  /** A form's latitude, longitude and radius fields (their ids) that a click on the map fills in, with the circle drawn. */
  pick?: { lat: string; lon: string; radius: string };
}

const MAP_SCRIPT = `(function () {
  var block = document.getElementById('map-data');
  if (!block || !window.L) return;
  var data = JSON.parse(block.textContent);
  document.querySelectorAll('[data-map]').forEach(function (figure) {
    var spec = data.maps[figure.getAttribute('data-map')];
    if (!spec) return;
    figure.hidden = false;
    var box = document.createElement('div');
    box.className = 'map-box';
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', spec.title);
    figure.insertBefore(box, figure.firstChild);
    var drawing = figure.querySelector('svg.drawing');
    if (drawing) drawing.style.display = 'none';
    var map = L.map(box, { scrollWheelZoom: false });
    var tiles = L.tileLayer(data.tiles, { attribution: data.attribution, maxZoom: 18 }).addTo(map);
    var loaded = false, told = false;
    tiles.on('tileload', function () { loaded = true; });
    // tiles that cannot load (offline, blocked, a wrong MAP_TILE_URL) leave a grey box: say so, and
    // give the server's drawing back where there is one
    tiles.on('tileerror', function () {
      if (loaded || told) return;
      told = true;
      var note = document.createElement('p');
      note.className = 'help tiles-unavailable';
      note.setAttribute('role', 'status');
      note.textContent = 'Map tiles could not be loaded, so the map has no streets' +
        (drawing ? ': the track is drawn without them.' : '.') +
        ' The operator sets MAP_TILE_URL to a tile server browsers can reach.';
      if (drawing) {
        drawing.style.display = '';
        box.hidden = true;
      }
      figure.insertBefore(note, box.nextSibling);
    });
    var bounds = L.latLngBounds([]);
    spec.lines.forEach(function (line) {
      if (line.length === 0) return;
      bounds.extend(L.polyline(line, { color: '#1f6f50', weight: 4, className: 'track-line' }).addTo(map).getBounds());
    });
    var first = spec.lines[0] && spec.lines[0][0];
    var lastLine = spec.lines[spec.lines.length - 1];
    var last = lastLine && lastLine[lastLine.length - 1];
    if (first) L.circleMarker(first, { radius: 6, color: '#1f6f50', fillOpacity: 1 }).bindTooltip('Start').addTo(map);
    if (last) L.circleMarker(last, { radius: 6, color: '#b3261e', fillOpacity: 1 }).bindTooltip('Finish').addTo(map);
    (spec.points || []).forEach(function (p) {
      var marker = L.circleMarker([p[0], p[1]], { radius: 7, color: '#1849a9', fillOpacity: 0.8 }).addTo(map);
      var label = document.createElement(p[3] ? 'a' : 'span');
      label.textContent = p[2];
      if (p[3]) label.href = p[3];
      marker.bindPopup(label);
      bounds.extend([p[0], p[1]]);
    });
    (spec.zones || []).forEach(function (z) {
      L.circle([z[0], z[1]], { radius: z[2], color: '#b3261e', fillOpacity: 0.15, className: 'privacy-zone' }).bindTooltip('Your privacy zone').addTo(map);
      if (spec.pick) bounds.extend(L.latLng(z[0], z[1]).toBounds(z[2] * 2));
    });
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [16, 16], maxZoom: 16 });
    else map.setView([20, 0], 2);
    if (spec.pick) pick(map, spec.pick);
  });

  /** A click on the map places the new zone: the form's fields follow it, and its circle follows them. */
  function pick(map, ids) {
    var lat = document.getElementById(ids.lat), lon = document.getElementById(ids.lon), radius = document.getElementById(ids.radius);
    if (!lat || !lon || !radius) return;
    var circle = null;
    function draw() {
      var at = [Number(lat.value), Number(lon.value)], r = Number(radius.value);
      if (lat.value === '' || lon.value === '' || !isFinite(at[0]) || !isFinite(at[1]) || !(r > 0)) return;
      if (!circle) circle = L.circle(at, { radius: r, color: '#1849a9', fillOpacity: 0.15, dashArray: '6', className: 'new-zone' }).bindTooltip('The new zone').addTo(map);
      else circle.setLatLng(at).setRadius(r);
    }
    map.on('click', function (event) {
      lat.value = event.latlng.lat.toFixed(5);
      lon.value = L.Util.wrapNum(event.latlng.lng, [-180, 180], true).toFixed(5);
      draw();
    });
    [lat, lon, radius].forEach(function (input) { input.addEventListener('input', draw); });
    // or where the browser says the athlete is (it asks them first)
    var here = document.getElementById('zone-here'), said = document.getElementById('zone-here-status');
    if (!here || !navigator.geolocation) return;
    here.hidden = false;
    here.addEventListener('click', function () {
      if (said) said.textContent = 'Finding where you are…';
      navigator.geolocation.getCurrentPosition(function (position) {
        lat.value = position.coords.latitude.toFixed(5);
        lon.value = position.coords.longitude.toFixed(5);
        draw();
        map.setView([position.coords.latitude, position.coords.longitude], 15);
        if (said) said.textContent = 'The new zone is centred where you are: check it on the map, then add it.';
      }, function (error) {
        if (said) said.textContent = error.code === 1 ? 'Your browser did not share your location: click the map instead.' : 'Your location could not be found: click the map instead.';
      }, { enableHighAccuracy: true, timeout: 15000 });
    });
  }
})();
`;

/**
 * What every people page runs, when script runs: forms that name the browser's time zone (the compose
 * form's "When", until the athlete sets theirs) get it filled in.
 */
const PAGE_SCRIPT = `(function () {
  var zone = '';
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) {}
  document.querySelectorAll('input[data-browser-zone]').forEach(function (input) { input.value = zone; });
})();
`;

interface Asset {
  type: string;
  body: string;
}

const require = createRequire(import.meta.url);
const version = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

let loading: Promise<Map<string, Asset>> | null = null;

/** The files, read once, on the first page that asks for them. */
function assets(): Promise<Map<string, Asset>> {
  loading ??= (async () => {
    const dist = path.dirname(require.resolve('leaflet/dist/leaflet.js'));
    const [script, style] = await Promise.all([
      readFile(path.join(dist, 'leaflet.js'), 'utf8'),
      readFile(path.join(dist, 'leaflet.css'), 'utf8'),
    ]);
    const sse = await readFile(path.join(SSE_DIR, 'umd', 'graphql-sse.min.js'), 'utf8');
    return new Map<string, Asset>([
      ['leaflet.js', { type: 'text/javascript; charset=utf-8', body: script }],
      ['leaflet.css', { type: 'text/css; charset=utf-8', body: style }],
      ['map.js', { type: 'text/javascript; charset=utf-8', body: MAP_SCRIPT }],
      ['page.js', { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT }],
      ['entry.js', { type: 'text/javascript; charset=utf-8', body: ENTRY_SCRIPT }],
      ['graphql-sse.js', { type: 'text/javascript; charset=utf-8', body: sse }],
    ]);
  })();
  return loading;
}

/** Where each asset is served: its name with its version, so that a new one is never read from a cache. */
const LEAFLET = (require('leaflet/package.json') as { version: string }).version;
/** graphql-sse does not export its browser build: it is found beside its package.json. */
const SSE_DIR = path.dirname(require.resolve('graphql-sse/package.json'));
const SSE = (require('graphql-sse/package.json') as { version: string }).version;
export const MAP_ASSETS = {
  script: `/assets/map-${version(MAP_SCRIPT)}.js`,
  leaflet: `/assets/leaflet-${LEAFLET}.js`,
  style: `/assets/leaflet-${LEAFLET}.css`,
};
export const PAGE_ASSETS = { script: `/assets/page-${version(PAGE_SCRIPT)}.js` };
export const ENTRY_ASSETS = {
  script: `/assets/entry-${version(ENTRY_SCRIPT)}.js`,
  sse: `/assets/graphql-sse-${SSE}.js`,
};

export function mountPageAssets(router: Router): void {
  const serve = (name: string) => async () => {
    const asset = (await assets()).get(name)!;
    return new Response(asset.body, {
      headers: {
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      },
    });
  };
  router.get(MAP_ASSETS.script, serve('map.js'));
  router.get(PAGE_ASSETS.script, serve('page.js'));
  router.get(MAP_ASSETS.leaflet, serve('leaflet.js'));
  router.get(MAP_ASSETS.style, serve('leaflet.css'));
  router.get(ENTRY_ASSETS.script, serve('entry.js'));
  router.get(ENTRY_ASSETS.sse, serve('graphql-sse.js'));
}
