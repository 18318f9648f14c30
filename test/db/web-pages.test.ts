// The pages people open from an app's links, in a real browser (Debian's Chromium): the home feed, an
// entry, a person and a route. Each works without JavaScript, fits a phone, passes axe-core, and is
// photographed into test/artifacts/ for review.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run should have installed Debian's chromium`);
  console.log(`[milepost] ${CHROMIUM} is missing (apt-get install chromium): the page tests are skipped.`);
}
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const GPX = readFileSync(new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url), 'utf8');

let db: TestDatabase;
let app: App;
let server: Server;
let base = '';
let browser: Browser;
let noScript: BrowserContext;
let phone: BrowserContext;
const ids = { entry: 0, route: 0, hidden: 0 };
const tokens = { ann: '' };

async function graphql<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

beforeAll(async () => {
  if (!haveChromium) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  db = await createTestDatabase('pages');
  app = createApp(testConfig(db.config), db);
  server = await listen(app, { ...testConfig(db.config), port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ann = await createPerson(db.prisma, { username: 'ann', displayName: 'Ann Runner' });
  const bob = await createPerson(db.prisma, { username: 'bob', displayName: 'Bob Cyclist' });
  await makeFriends(db.prisma, ann.id, bob.id);
  const [annToken, bobToken] = [await createToken(db.prisma, ann.id), await createToken(db.prisma, bob.id)];
  tokens.ann = annToken;
  const created = await graphql<{ createEntry: { entry: { id: number } } }>(
    annToken,
    'mutation { createEntry(input: { message: "Hill repeats at dawn", placeName: "Oakland, CA", workout: { activityType: RUNNING, distance: { value: 8.2, units: KILOMETERS }, duration: 2710, felt: GREAT } }) { entry { id: databaseId } } }',
  );
  ids.entry = created.createEntry.entry.id;
  // a timed track: the person page's records come from it
  await graphql(
    annToken,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: ids.entry,
      gpx: GPX,
    },
  );
  const hidden = await graphql<{ createEntry: { entry: { id: number } } }>(
    annToken,
    'mutation { createEntry(input: { message: "Just for my friends", visibility: FRIENDS }) { entry { id: databaseId } } }',
  );
  ids.hidden = hidden.createEntry.entry.id;
  await graphql(
    bobToken,
    'mutation ($id: ID!) { createComment(input: { entryId: $id, body: "Strong finish!" }) { error { __typename } } }',
    { id: ids.entry },
  );
  await graphql(bobToken, 'mutation ($id: ID!) { likeEntry(input: { entryId: $id }) { error { __typename } } }', { id: ids.entry });
  const route = await graphql<{ createRoute: { route: { id: number } } }>(
    annToken,
    'mutation { createRoute(input: { name: "Lake loop", activityType: RUNNING }) { route { id: databaseId } } }',
  );
  ids.route = route.createRoute.route.id;
  await graphql(
    annToken,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setRouteTrack(input: { routeId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: ids.route,
      gpx: GPX,
    },
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  noScript = await browser.newContext({ javaScriptEnabled: false });
  // a phone; CSP bypassed only so that the test can inject axe-core
  phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    bypassCSP: true,
  });
}, 60_000);

afterAll(async () => {
  if (!haveChromium) return;
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
  await db.destroy();
});

const PAGES = [
  {
    name: 'home',
    path: () => '/',
    heading: 'Latest from everyone',
    texts: ['Hill repeats at dawn', 'Running, 8.2 km', 'Ann Runner', '8.2 km', '45:10', '5:30 /km', '1 comment', '1 like'],
  },
  {
    name: 'entry',
    path: () => `/entries/${ids.entry}`,
    heading: 'Running, 8.2 km',
    texts: ['Hill repeats at dawn', 'Strong finish!', 'Bob Cyclist', 'Oakland, CA'],
  },
  {
    name: 'person',
    path: () => '/people/ann',
    heading: 'Ann Runner',
    texts: ['@ann', 'Hill repeats at dawn', 'Bob Cyclist', 'Lake loop', 'Training', 'Current streak: 1 day', 'All stats'],
  },
  {
    name: 'stats',
    path: () => '/people/ann/stats?period=month&activity=running',
    heading: 'Ann Runner: stats',
    texts: ['Distance: running, by month', 'Total', 'Records and streak', 'Current streak: 1 day'],
  },
  {
    name: 'route',
    path: () => `/routes/${ids.route}`,
    heading: 'Lake loop',
    texts: ['A route by', 'Ann Runner', 'Download the GPX', 'm climbed'],
  },
];

describe.skipIf(!haveChromium)('the web pages', () => {
  for (const target of PAGES) {
    it(`shows the ${target.name} page without JavaScript`, async () => {
      const tab = await noScript.newPage();
      const response = await tab.goto(`${base}${target.path()}`);
      expect(response!.status()).toBe(200);
      expect(response!.headers()['content-type']).toContain('text/html');
      expect(await tab.locator('h1').textContent()).toBe(target.heading);
      const text = await tab.locator('main').innerText();
      for (const expected of target.texts) expect(text).toContain(expected);
      await tab.close();
    });

    it(`fits a phone and passes axe-core on the ${target.name} page`, async () => {
      const tab = await phone.newPage();
      await tab.goto(`${base}${target.path()}`);
      // nothing wider than the screen: no sideways scrolling
      expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await tab.addScriptTag({ content: AXE });
      const violations = await tab.evaluate(async () => {
        const result = await (
          window as unknown as { axe: { run: (options: object) => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }
        ).axe.run({ resultTypes: ['violations'] });
        return result.violations.map(
          (v) => `${v.id} (${v.nodes.length}) ${JSON.stringify((v.nodes as Array<{ html: string }>).map((n) => n.html))}`,
        );
      });
      expect(violations).toEqual([]);
      await tab.screenshot({ path: `${ARTIFACTS}${target.name}.png`, fullPage: true });
      await tab.close();
    });
  }

  it('draws the route on a map with start and finish, and an elevation profile', async () => {
    const tab = await noScript.newPage();
    await tab.goto(`${base}/routes/${ids.route}`);
    expect(await tab.locator('svg.track-map path').count()).toBeGreaterThan(0);
    expect(await tab.locator('svg.track-map circle').count()).toBe(2);
    expect(await tab.locator('svg.elevation-profile title').textContent()).toMatch(/from \d+ m to \d+ m over [\d.]+ km/);
    await tab.close();
  });

  it('draws a year of weekly distance on the person page, and links the stats by period and activity', async () => {
    const tab = await noScript.newPage();
    await tab.goto(`${base}/people/ann`);
    // 52 or 53 weeks, one bar each; this week's holds the 8.2 km run, in the reader's units (kilometres
    // for a visitor who is not logged in, whatever Ann's own)
    const bars = await tab.locator('svg.distance-chart rect').count();
    expect(bars).toBeGreaterThanOrEqual(52);
    expect(await tab.locator('svg.distance-chart rect title').last().textContent()).toContain('8.2 km, 1 workout');
    // a labelled axis: its top is a round figure
    expect(await tab.locator('svg.distance-chart text').allTextContents()).toContain('10 km');
    await tab.getByRole('link', { name: 'All stats, by week, month or year' }).click();
    await tab.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'Years' }).click();
    expect(new URL(tab.url()).searchParams.get('period')).toBe('year');
    await tab.getByRole('navigation', { name: 'Activity' }).getByRole('link', { name: 'cycling' }).click();
    expect(await tab.locator('h2#chart-heading').textContent()).toBe('Distance: cycling, by year');
    expect(await tab.locator('tfoot td').first().textContent()).toBe('0');
    // years without a workout are left out of the table, and said to be
    expect(await tab.locator('table.totals tbody tr').count()).toBe(0);
    expect(await tab.locator('table.totals caption').textContent()).toContain('without a workout left out');
    await tab.close();
  });

  it('fits the stats table, climb column and all, on a phone', async () => {
    const tab = await phone.newPage();
    await tab.goto(`${base}/people/ann/stats?period=week`);
    const [width, room] = await tab.locator('.scroll').evaluate((box) => [box.scrollWidth, box.clientWidth]);
    expect(width).toBeLessThanOrEqual(room!);
    expect(await tab.locator('table.totals thead th').last().isVisible()).toBe(true);
    // the chart's labels stay readable: at least 11 CSS pixels at a phone's width
    const size = await tab
      .locator('svg.distance-chart text')
      .first()
      .evaluate((text) => (text as SVGTextElement).getBoundingClientRect().height);
    expect(size).toBeGreaterThanOrEqual(11);
    await tab.close();
  });

  it('shows no stats to anyone when the athlete keeps them to themselves', async () => {
    await graphql(tokens.ann, 'mutation { updateProfile(input: { statsVisibility: ONLY_ME }) { error { __typename } } }');
    const tab = await noScript.newPage();
    await tab.goto(`${base}/people/ann`);
    expect(await tab.locator('#training-heading').count()).toBe(0);
    await tab.goto(`${base}/people/ann/stats`);
    expect(await tab.locator('main').innerText()).toContain('These stats are private.');
    await graphql(tokens.ann, 'mutation { updateProfile(input: { statsVisibility: EVERYONE }) { error { __typename } } }');
    await tab.close();
  });

  it('leaves a privacy zone out of the drawn map: the line breaks where the owner hides a place', async () => {
    const tab = await noScript.newPage();
    await tab.goto(`${base}/routes/${ids.route}`);
    const whole = await tab.locator('svg.track-map path').count();
    const middle = [...GPX.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"/g)][20]!;
    const zone = await graphql<{ addPrivacyZone: { privacyZone: { id: number } } }>(
      tokens.ann,
      `mutation { addPrivacyZone(input: { lat: ${middle[1]}, lon: ${middle[2]}, radiusMeters: 50 }) { privacyZone { id: databaseId } } }`,
    );
    await tab.goto(`${base}/routes/${ids.route}`);
    expect(await tab.locator('svg.track-map path').count()).toBe(whole + 1);
    await tab.screenshot({ path: `${ARTIFACTS}route-with-privacy-zone.png`, fullPage: true });
    await graphql(
      tokens.ann,
      `mutation { removePrivacyZone(input: { id: ${zone.addPrivacyZone.privacyZone.id} }) { error { __typename } } }`,
    );
    await tab.goto(`${base}/routes/${ids.route}`);
    expect(await tab.locator('svg.track-map path').count()).toBe(whole);
    await tab.close();
  });

  it('resolves every url and photo_url of the JSON shapes to a page or a picture', async () => {
    const entry = (await (await fetch(`${base}/entries/${ids.entry}.json`)).json()) as {
      url: string;
      user: { url: string; photo_url: string };
      comments: Array<{ user: { url: string; photo_url: string } }>;
      likes: Array<{ user: { url: string } }>;
    };
    const pages = [entry.url, entry.user.url, entry.comments[0]!.user.url, entry.likes[0]!.user.url];
    const tab = await noScript.newPage();
    for (const url of pages) {
      const response = await tab.goto(url);
      expect(response!.status(), url).toBe(200);
      expect(response!.headers()['content-type'], url).toContain('text/html');
    }
    for (const url of [entry.user.photo_url, entry.comments[0]!.user.photo_url]) {
      const response = await tab.goto(url);
      expect(response!.status(), url).toBe(200);
      expect(response!.headers()['content-type'], url).toContain('image/svg+xml');
    }
    await tab.close();
  });

  it('shows a logged-in person their name and a log-out button on every page', async () => {
    const { createAccount } = await import('../../src/db/account-sessions.ts');
    await createAccount(db.prisma, { username: 'carol', displayName: 'Carol Climber', password: 'a long enough passphrase' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await context.newPage();
    await tab.goto(`${base}/login?next=/`);
    await tab.fill('#username', 'carol');
    await tab.fill('#password', 'a long enough passphrase');
    await Promise.all([tab.waitForURL(`${base}/`), tab.click('button[type=submit]')]);
    expect(await tab.locator('header').innerText()).toContain('Carol Climber');
    // one Log out in sight (a phone finds it under the header's Menu)
    expect(await tab.locator('header button:visible', { hasText: 'Log out' }).count()).toBe(1);
    await tab.goto(`${base}/routes/${ids.route}`);
    expect(await tab.locator('header').innerText()).toContain('Carol Climber');
    await context.close();
  });

  it('answers a hidden entry’s page (friends only) with the same 404 page as a missing one, and leaves it out of the feed', async () => {
    const tab = await noScript.newPage();
    const response = await tab.goto(`${base}/entries/${ids.hidden}`);
    expect(response!.status()).toBe(404);
    expect(await tab.locator('h1').textContent()).toBe('Not found');
    await tab.goto(`${base}/people/ann`);
    expect(await tab.locator('main').innerText()).not.toContain('Just for my friends');
    expect(await tab.locator('main').innerText()).toContain('Hill repeats at dawn');
    await tab.close();
  });

  it('answers a missing entry with a 404 page, and apps with JSON at the same paths', async () => {
    const tab = await noScript.newPage();
    const response = await tab.goto(`${base}/entries/999999`);
    expect(response!.status()).toBe(404);
    expect(await tab.locator('h1').textContent()).toBe('Not found');
    await tab.close();
    const json = await fetch(`${base}/entries/${ids.entry}`, { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toContain('application/json');
    // one path, two representations: shared caches are told to keep them apart
    // Accept chooses page or JSON; Accept-Encoding, compressed or not
    expect(json.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect((await fetch(`${base}/entries/${ids.entry}`, { headers: { accept: 'text/html' } })).headers.get('vary')).toBe(
      'Accept, Accept-Encoding',
    );
    expect(((await json.json()) as { id: number }).id).toBe(ids.entry);
  });

  it('shows what people wrote as text, never as markup: names, messages, places and comments', async () => {
    const attack = '<img src=x onerror="alert(1)">';
    const mallory = await createPerson(db.prisma, { username: 'mallory', displayName: attack });
    const token = await createToken(db.prisma, mallory.id);
    const made = await graphql<{ createEntry: { entry: { id: number } } }>(
      token,
      'mutation ($text: String!) { createEntry(input: { message: $text, placeName: $text, workout: { activityType: RUNNING, title: $text } }) { entry { id: databaseId } } }',
      { text: attack },
    );
    await graphql(
      token,
      'mutation ($id: ID!, $text: String!) { createComment(input: { entryId: $id, body: $text }) { error { __typename } } }',
      {
        id: made.createEntry.entry.id,
        text: attack,
      },
    );
    for (const path of ['/', `/entries/${made.createEntry.entry.id}`, '/people/mallory']) {
      const page = await (await fetch(`${base}${path}`, { headers: { accept: 'text/html' } })).text();
      expect(page, path).not.toContain('<img src=x');
      expect(page, path).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    }
    const tab = await noScript.newPage();
    await tab.goto(`${base}/entries/${made.createEntry.entry.id}`);
    // the only pictures are the avatars: none came from the text
    expect(await tab.locator('img:not([src*="/avatar"]):not([src*="photo"])').count()).toBe(0);
    expect(await tab.locator('h1').textContent()).toBe(attack);
    await tab.close();
  });
});
