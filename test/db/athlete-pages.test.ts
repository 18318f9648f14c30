// An athlete's day on the pages, in Chromium, on a phone and on a desktop: sign up, post a workout with a
// GPX track and a photo, see both, befriend, comment, like, choose who sees an entry, hide a place,
// change the settings. The forms also work without JavaScript, and every page passes axe-core.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { mailTokens } from '../../src/mail/tokens.ts';
import { type MailWorker, startMailWorker } from '../../src/mail/worker.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';
import { type MailSink, startMailSink } from '../support/smtp.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run should have installed Debian's chromium`);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const GPX_FILE = new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url).pathname;
const PASSWORD = 'a long enough passphrase';

let db: TestDatabase;
let app: App;
let server: Server;
let base = '';
let browser: Browser;
let photo: Buffer;
/** A tile server of our own: the maps' tiles never come from the internet in the tests. */
let tiles: Server;
let tilesAsked = 0;
/** The SMTP server the pages' mails go to, and the mail worker a server process would run. */
let sink: MailSink;
let mailer: MailWorker;
const SESSION_SECRET = 'the athlete pages test secret, long enough';

beforeAll(async () => {
  if (!haveChromium) return;
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#cde' } })
    .png()
    .toBuffer();
  tiles = createServer((request, response) => {
    tilesAsked += 1;
    const ok = /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '');
    response.writeHead(ok ? 200 : 404, { 'content-type': 'image/png' }).end(ok ? tile : undefined);
  });
  await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
  const tileUrl = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`;
  db = await createTestDatabase('athlete_pages');
  sink = await startMailSink();
  const env = { MAP_TILE_URL: tileUrl, MAP_ATTRIBUTION: 'Test tiles', SMTP_URL: sink.url, SESSION_SECRET };
  app = createApp(testConfig(db.config, env), db);
  server = await listen(app, { ...testConfig(db.config, env), port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mailer = startMailWorker(db.prisma, {
    smtpUrl: sink.url,
    from: 'Milepost <no-reply@127.0.0.1>',
    pollMs: 3_600_000,
    origin: base,
    tokens: mailTokens(SESSION_SECRET),
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#d35' } })
    .jpeg()
    .toBuffer();
}, 60_000);

afterAll(async () => {
  if (!haveChromium) return;
  await browser?.close();
  await mailer.stop();
  await sink.close();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => tiles.close(resolve));
  await app.close();
  await db.destroy();
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

async function signUp(context: BrowserContext, username: string, displayName: string): Promise<Page> {
  // a step that cannot happen fails on its own, well inside the test's time
  context.setDefaultTimeout(10_000);
  const tab = await context.newPage();
  await tab.goto(`${base}/signup?next=%2F`);
  expect(await tab.locator('#username-rules').textContent()).toContain('2 to 30 letters');
  await tab.fill('#username', username);
  await tab.fill('#display_name', displayName);
  await tab.fill('#password', PASSWORD);
  await Promise.all([tab.waitForURL(`${base}/`), tab.click('main button[type=submit]')]);
  expect(await tab.locator('header').innerText()).toContain(displayName);
  return tab;
}

/** axe-core on the page as it stands (evaluated by the browser's devtools protocol, which the page's CSP does not govern). */
async function axeViolations(tab: Page): Promise<string[]> {
  await tab.evaluate(AXE);
  return tab.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run: (options: object) => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }
    ).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

/** Until both of the entry page's subscriptions are open, so that nothing sent after is missed. */
async function waitForLive(tab: Page): Promise<void> {
  await tab.locator('[data-entry][data-listening="2"]').waitFor({ state: 'attached' });
}

const fitsTheScreen = (tab: Page) => tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.skipIf(!haveChromium)('the athlete’s pages', () => {
  for (const [device, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`on a ${device}: posts a workout with a GPX track and a photo, befriends, comments, likes, and chooses who sees it`, async () => {
      const suffix = device === 'phone' ? 'p' : 'd';
      const cara = await browser.newContext({ ...options, bypassCSP: true });
      const dan = await browser.newContext({ ...options, bypassCSP: true });
      const tab = await signUp(cara, `cara${suffix}`, `Cara ${device}`);
      expect(await fitsTheScreen(tab)).toBe(true);
      expect(await axeViolations(tab)).toEqual([]);

      // compose: a friends-only run with its track and a photo
      // choosing a workout shows its fields (no disclosure to open)
      expect(await tab.locator('#compose-distance').isVisible()).toBe(false);
      await tab.check('input[name=kind][value=workout]');
      expect(await tab.locator('#compose-distance').isVisible()).toBe(true);
      await tab.fill('#compose-message', 'Tempo by the river');
      await tab.selectOption('#compose-activity', 'running');
      await tab.fill('#compose-title', `River tempo ${device}`);
      await tab.fill('#compose-distance', '10.5');
      await tab.fill('#compose-duration', '48:30');
      await tab.setInputFiles('#compose-track', GPX_FILE);
      await tab.setInputFiles('#compose-photo', { name: 'river.jpg', mimeType: 'image/jpeg', buffer: photo });
      await tab.selectOption('#compose-visibility', 'FRIENDS');
      await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
      const entryUrl = tab.url();
      expect(await tab.locator('h1').textContent()).toBe(`River tempo ${device}`);
      // the author sees their own friends-only entry; its photo loads, its track is drawn
      expect(await tab.locator('.entry .badge').textContent()).toBe('Friends only');
      const image = tab.locator('a.photo img').first();
      await image.waitFor();
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await tab.locator('svg.track-map path').count()).toBeGreaterThan(0);
      // in Cara's units (a new account counts in miles, as the original service's did)
      expect(await tab.locator('main').innerText()).toContain('Running · 10.5 mi · 48:30');
      expect(await fitsTheScreen(tab)).toBe(true);
      expect(await axeViolations(tab)).toEqual([]);

      // a stranger, logged in or not, does not see it
      const danTab = await signUp(dan, `dan${suffix}`, `Dan ${device}`);
      expect((await danTab.goto(entryUrl))!.status()).toBe(404);
      expect((await fetch(entryUrl, { headers: { accept: 'text/html' } })).status).toBe(404);

      // Dan finds Cara and asks; Cara accepts from her settings page
      // (by a word of her name, from the home page's search box)
      await danTab.goto(`${base}/`);
      await danTab.fill('#search-q', `car ${device}`);
      await Promise.all([danTab.waitForURL(/\/search\?q=/), danTab.click('form.find button')]);
      expect(await axeViolations(danTab)).toEqual([]);
      expect(await fitsTheScreen(danTab)).toBe(true);
      await Promise.all([
        danTab.waitForURL(`${base}/people/cara${suffix}`),
        danTab
          .locator('[aria-labelledby=people-heading]')
          .getByRole('link', { name: `Cara ${device}` })
          .click(),
      ]);
      await Promise.all([danTab.waitForLoadState('load'), danTab.getByRole('button', { name: 'Ask to be friends' }).click()]);
      expect(await danTab.locator('#friendship-heading + p').textContent()).toContain('waiting for an answer');
      await tab.goto(`${base}/settings`);
      await Promise.all([tab.waitForURL(`${base}/settings`), tab.getByRole('button', { name: 'Accept' }).click()]);
      expect(await tab.locator('#requests-heading').count()).toBe(0);

      // now Dan sees it, likes it and comments on it, in place (the page is never reloaded), while
      // Cara, with the entry open, sees both arrive by themselves (its subscriptions, as her session)
      await tab.goto(entryUrl);
      await waitForLive(tab);
      expect((await danTab.goto(entryUrl))!.status()).toBe(200);
      await danTab.evaluate(() => Object.assign(window, { stayed: true }));
      await danTab.getByRole('button', { name: 'Like' }).click();
      await danTab.getByRole('button', { name: 'Liked · Unlike' }).waitFor();
      expect(await danTab.locator('#live-status').textContent()).toBe('Liked.');
      await danTab.fill('#comment-body', 'Strong pacing!');
      await danTab.getByRole('button', { name: 'Comment' }).click();
      await danTab.locator('[data-live=comments] li', { hasText: 'Strong pacing!' }).waitFor();
      // (the live update may show the comment a moment before the form's own answer empties the box)
      await expect.poll(() => danTab.inputValue('#comment-body')).toBe('');
      expect(await danTab.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await tab.locator('[data-live=comments] li', { hasText: 'Strong pacing!' }).waitFor();
      await tab.locator('[data-live=likes] li', { hasText: `Dan ${device}` }).waitFor();
      expect(await tab.locator('[data-live=card]').innerText()).toContain('1 comment · 1 like');
      // he changes his comment, in place too
      await danTab.locator('[data-live=comments] summary', { hasText: 'Edit' }).click();
      await danTab.locator('[data-live=comments] textarea').fill('Strong pacing, again!');
      await danTab.locator('[data-live=comments]').getByRole('button', { name: 'Save' }).click();
      await danTab.locator('[data-live=comments] li p', { hasText: 'Strong pacing, again!' }).waitFor();
      await danTab.getByRole('button', { name: 'Liked · Unlike' }).click();
      await danTab.getByRole('button', { name: 'Like', exact: true }).waitFor();
      expect(await danTab.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      expect(await axeViolations(danTab)).toEqual([]);

      // Cara rewrites her message, then opens the entry to everyone; then anyone sees it
      await tab.goto(entryUrl);
      expect(await tab.locator('main').innerText()).toContain('Strong pacing, again!');
      await tab.locator('summary', { hasText: 'Edit the entry' }).click();
      await tab.fill('#edit-message', 'Tempo by the river, into the wind');
      await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Save changes' }).click()]);
      expect(await tab.locator('[data-live=card]').innerText()).toContain('into the wind');
      await tab.selectOption('#entry-visibility', 'EVERYONE');
      await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Save' }).click()]);
      expect((await fetch(entryUrl, { headers: { accept: 'text/html' } })).status).toBe(200);

      // and hides her home: a zone, listed on her settings page
      await tab.goto(`${base}/settings`);
      await tab.fill('#zone_lat', '37.8044');
      await tab.fill('#zone_lon', '-122.2712');
      await tab.fill('#zone_radius', '400');
      await Promise.all([tab.waitForURL(/saved=zones/), tab.getByRole('button', { name: 'Add the zone' }).click()]);
      expect(await tab.locator('main').innerText()).toContain('Within 400 m of 37.8044, -122.2712');
      expect(await axeViolations(tab)).toEqual([]);
      await cara.close();
      await dan.close();
    }, 120_000);
  }

  it('draws a track on a map of the configured tiles, under the pages’ own CSP; the owner alone sees her privacy zone', async () => {
    const context = await browser.newContext(DESKTOP);
    const tab = await signUp(context, 'hana', 'Hana');
    const refused: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    const [first] = [...readFileSync(GPX_FILE, 'utf8').matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"/g)];
    await tab.goto(`${base}/settings`);
    // a click on the settings page's map places a zone: the fields are filled in and its circle drawn
    const zonesMap = tab.locator('figure[data-map=zones] .map-box');
    await zonesMap.locator('.leaflet-tile-loaded').first().waitFor();
    expect(await tab.inputValue('#zone_lat')).toBe('');
    await zonesMap.click({ position: { x: 200, y: 120 } });
    expect(Number(await tab.inputValue('#zone_lat'))).toBeGreaterThanOrEqual(-90);
    expect(await tab.inputValue('#zone_lat')).toMatch(/^-?\d+\.\d{5}$/);
    expect(await tab.inputValue('#zone_lon')).toMatch(/^-?\d+\.\d{5}$/);
    expect(await zonesMap.locator('path.new-zone').count()).toBe(1);
    await tab.fill('#zone_lat', first![1]!);
    await tab.fill('#zone_lon', first![2]!);
    await tab.fill('#zone_radius', '200');
    await Promise.all([tab.waitForURL(/saved=zones/), tab.getByRole('button', { name: 'Add the zone' }).click()]);
    // her zone is drawn on the settings page's map from then on
    await zonesMap.locator('path.privacy-zone').waitFor();
    await tab.goto(`${base}/`);
    await tab.setInputFiles('#compose-track', GPX_FILE);
    await tab.selectOption('#compose-visibility', 'EVERYONE');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    const entryUrl = tab.url();
    await tab.locator('.map-box .leaflet-tile-loaded').first().waitFor();
    expect(tilesAsked).toBeGreaterThan(0);
    expect(await tab.locator('.map-box .leaflet-control-attribution').textContent()).toContain('Test tiles');
    // the line and her zone; the SVG drawing gives way to the map
    expect(await tab.locator('.map-box path.track-line').count()).toBe(1);
    expect(await tab.locator('.map-box path.privacy-zone').count()).toBe(1);
    expect(await tab.locator('svg.track-map').isVisible()).toBe(false);
    expect(refused).toEqual([]);
    // anyone else: the line alone
    const stranger = await browser.newContext(DESKTOP);
    const other = await stranger.newPage();
    await other.goto(entryUrl);
    await other.locator('.map-box .leaflet-tile-loaded').first().waitFor();
    expect(await other.locator('.map-box path.track-line').count()).toBe(1);
    expect(await other.locator('.map-box path.privacy-zone').count()).toBe(0);
    expect(await other.locator('#map-data').textContent()).not.toContain('zones');
    // without script, the SVG drawing remains
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const still = await plain.newPage();
    await still.goto(entryUrl);
    expect(await still.locator('svg.track-map').isVisible()).toBe(true);
    await Promise.all([context.close(), stranger.close(), plain.close()]);
  });

  it('changes the profile, and reads every distance in the athlete’s units', async () => {
    const context = await browser.newContext({ ...DESKTOP, bypassCSP: true });
    const tab = await signUp(context, 'eve', 'Eve');
    await tab.goto(`${base}/settings`);
    await tab.fill('#display_name', 'Eve Miler');
    expect(await tab.inputValue('#photo_url')).toBe('');
    await tab.fill('#photo_url', 'https://pictures.example/eve.png');
    await tab.selectOption('#units', 'MILES');
    await tab.fill('#hidden_ends', '200');
    await Promise.all([tab.waitForURL(/saved=profile/), tab.getByRole('button', { name: 'Save', exact: true }).click()]);
    expect(await tab.locator('[role=status]').textContent()).toContain('saved');
    expect(await tab.locator('header').innerText()).toContain('Eve Miler');
    expect(await tab.inputValue('#photo_url')).toBe('https://pictures.example/eve.png');
    // then uploads a picture of her own in its place: it shows, served by Milepost
    await tab.setInputFiles('#photo', { name: 'eve.jpg', mimeType: 'image/jpeg', buffer: photo });
    await Promise.all([tab.waitForURL(/saved=profile/), tab.getByRole('button', { name: 'Save', exact: true }).click()]);
    expect(await tab.locator('fieldset.avatar').innerText()).toContain('A picture you uploaded.');
    expect(await tab.inputValue('#photo_url')).toBe('');
    const avatar = tab.locator('fieldset.avatar img');
    expect(await avatar.getAttribute('src')).toMatch(/\/media\/[0-9a-f]{64}\.jpg$/);
    expect(await avatar.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(320);
    // a value the server refuses (past the form's own bound, as an old browser would send it) says what
    // is wrong, at the top and by the form, and keeps nothing
    await tab.evaluate(() => document.querySelector('#hidden_ends')!.removeAttribute('max'));
    await tab.fill('#hidden_ends', '6000');
    await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Save', exact: true }).click()]);
    expect(await tab.locator('[role=alert]').first().textContent()).toContain('Nothing was saved');
    expect(await tab.locator('main').innerText()).toMatch(/hidden ?ends ?meters/i);
    // the thresholds her workouts' zones are made of; a resting rate above the maximum is refused
    await tab.goto(`${base}/settings`);
    await tab.fill('#max_heart_rate', '188');
    await tab.fill('#threshold_power', '240');
    await Promise.all([tab.waitForURL(/saved=thresholds/), tab.getByRole('button', { name: 'Save training zones' }).click()]);
    expect(await tab.inputValue('#max_heart_rate')).toBe('188');
    expect(await tab.inputValue('#resting_heart_rate')).toBe('');
    await tab.fill('#resting_heart_rate', '110');
    await tab.fill('#max_heart_rate', '105');
    await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Save training zones' }).click()]);
    expect(await tab.locator('[role=alert]').first().textContent()).toContain('Nothing was saved');
    expect(await tab.locator('main').innerText()).toContain('below the maximum');
    await tab.goto(`${base}/settings`);
    expect(await tab.inputValue('#max_heart_rate')).toBe('188');
    await tab.goto(`${base}/`);
    await tab.check('input[name=kind][value=workout]');
    await tab.fill('#compose-distance', '10');
    await tab.selectOption('#compose-distance-units', 'kilometers');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    // 10 km, read in miles wherever it appears
    expect(await tab.locator('h1').textContent()).toBe('Running, 6.21 mi');
    await context.close();
  });

  it('works without JavaScript: post, comment and ask to be friends', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await signUp(context, 'finn', 'Finn');
    await tab.fill('#compose-message', 'A quiet rest day.');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    expect(await tab.locator('h1').textContent()).toBe('A quiet rest day.');
    await tab.locator('summary', { hasText: 'Edit the entry' }).click();
    await tab.fill('#edit-message', 'A quiet rest day, and a walk.');
    await Promise.all([tab.waitForEvent('load'), tab.getByRole('button', { name: 'Save changes' }).click()]);
    await tab.locator('h1', { hasText: 'and a walk' }).waitFor();
    expect(await tab.locator('h1').textContent()).toBe('A quiet rest day, and a walk.');
    await tab.fill('#comment-body', 'Noted.');
    await Promise.all([tab.waitForEvent('load'), tab.getByRole('button', { name: 'Comment' }).click()]);
    expect(await tab.locator('main').innerText()).toContain('Noted.');
    await tab.locator('[data-live=comments] summary', { hasText: 'Edit' }).click();
    await tab.locator('[data-live=comments] textarea').fill('Noted, with thanks.');
    await Promise.all([tab.waitForEvent('load'), tab.locator('[data-live=comments]').getByRole('button', { name: 'Save' }).click()]);
    await tab.locator('[data-live=comments] li p', { hasText: 'Noted, with thanks.' }).waitFor();
    await Promise.all([tab.waitForEvent('load'), tab.getByRole('button', { name: /^Delete comment/ }).click()]);
    await tab.locator('[data-live=comments] p', { hasText: 'No comments yet.' }).waitFor();
    expect(await tab.locator('main').innerText()).not.toContain('Noted');
    await createPerson(db.prisma, { username: 'mo', displayName: 'Mo' });
    await tab.goto(`${base}/people/mo`);
    await Promise.all([tab.waitForEvent('load'), tab.getByRole('button', { name: 'Ask to be friends' }).click()]);
    expect(await tab.locator('main').innerText()).toContain('waiting for an answer');
    // an empty post is refused with the reason, above the form, and the page keeps what was typed
    await tab.goto(`${base}/`);
    await tab.click('form.compose button[type=submit]');
    expect(await tab.locator('form.compose').locator('xpath=..').locator('[role=alert]').textContent()).toContain('write something');
    await context.close();
  });

  it('rings the bell for likes, comments and mentions; lists them, marks them read, and heeds the kinds chosen', async () => {
    const context = await browser.newContext(PHONE);
    const tab = await signUp(context, 'quinn', 'Quinn');
    expect(await tab.locator('header .bell').getAttribute('aria-label')).toBe('Notifications');
    await tab.fill('#compose-message', 'Track session');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    const entryId = Number(tab.url().split('/').pop());
    const rae = await createPerson(db.prisma, { username: 'rae', displayName: 'Rae' });
    const raeToken = await createToken(db.prisma, rae.id);
    const as = (query: string) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${raeToken}` },
        body: JSON.stringify({ query }),
      });
    await as(`mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`);
    await as(`mutation { createComment(input: { entryId: ${entryId}, body: "Well run, @quinn" }) { error { __typename } } }`);
    await tab.goto(`${base}/`);
    expect(await tab.locator('header .bell').getAttribute('aria-label')).toBe('Notifications: 2 unread');
    expect(await fitsTheScreen(tab)).toBe(true);
    await Promise.all([tab.waitForURL(`${base}/notifications`), tab.locator('header .bell').click()]);
    const items = await tab.locator('ul.notifications li').allInnerTexts();
    expect(items.join('\n')).toContain('Rae commented on your entry');
    expect(items.join('\n')).toContain('Rae liked your entry');
    expect(await axeViolations(tab)).toEqual([]);
    // the comment's mention is a link to her own page
    await tab.goto(`${base}/entries/${entryId}`);
    expect(await tab.locator('[data-live=comments] a', { hasText: '@quinn' }).getAttribute('href')).toBe('/people/quinn');
    await tab.goto(`${base}/notifications`);
    await Promise.all([tab.waitForURL(`${base}/notifications`), tab.getByRole('button', { name: 'Mark all 2 read' }).click()]);
    await tab.locator('header .bell[aria-label="Notifications"]').waitFor();
    // likes turned off: a like is heard of no more
    await tab.uncheck('input[name=on_LIKE]');
    await Promise.all([tab.waitForURL(/saved=kinds/), tab.getByRole('button', { name: 'Save' }).click()]);
    expect(await tab.isChecked('input[name=on_LIKE]')).toBe(false);
    // the other kinds stay as they were (a form's repeated names were once read as one: all but one went off)
    for (const kind of ['COMMENT', 'REPLY', 'MENTION', 'FRIEND_REQUEST']) expect(await tab.isChecked(`input[name=on_${kind}]`)).toBe(true);
    const ned = await createPerson(db.prisma, { username: 'ned_q' });
    await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await createToken(db.prisma, ned.id)}` },
      body: JSON.stringify({ query: `mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }` }),
    });
    await tab.goto(`${base}/notifications`);
    expect(await tab.locator('header .bell').getAttribute('aria-label')).toBe('Notifications');
    await context.close();
  });

  it('gives an address in the settings, follows the link mailed to it, chooses the kinds mailed, and stops the mails in one click', async () => {
    const context = await browser.newContext(DESKTOP);
    const tab = await signUp(context, 'mara', 'Mara');
    await tab.goto(`${base}/settings`);
    await tab.fill('#address', 'mara@example.com');
    await Promise.all([tab.waitForURL(/saved=email/), tab.locator('#email button[type=submit]:not([name])').click()]);
    expect(await tab.locator('#email').innerText()).toContain('mara@example.com is not verified yet');
    expect(await axeViolations(tab)).toEqual([]);
    await mailer.tick();
    const verification = sink.received.find((mail) => mail.subject === 'Confirm your address for Milepost');
    await tab.goto(verification!.text!.match(/http\S+\/email\/verify\S+/)![0]);
    expect(await tab.locator('main').innerText()).toContain('Your address is verified');
    // likes heard of in the app but not mailed; comments mailed
    await tab.goto(`${base}/notifications`);
    expect(await tab.locator('main').innerText()).toContain('go to mara@example.com, as they come');
    await tab.getByLabel('Likes of your entries: by mail').uncheck();
    await Promise.all([tab.waitForURL(/saved=kinds/), tab.getByRole('button', { name: 'Save' }).click()]);
    expect(await tab.getByLabel('Likes of your entries: by mail').isChecked()).toBe(false);
    expect(await tab.getByLabel('Likes of your entries: in the app').isChecked()).toBe(true);
    expect(await axeViolations(tab)).toEqual([]);
    await tab.goto(`${base}/`);
    await tab.fill('#compose-message', 'Threshold run');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    const entryId = Number(tab.url().split('/').pop());
    const sam = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'sam_m', displayName: 'Sam' })).id);
    for (const query of [
      `mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`,
      `mutation { createComment(input: { entryId: ${entryId}, body: "Strong" }) { error { __typename } } }`,
    ])
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sam}` },
        body: JSON.stringify({ query }),
      });
    const before = sink.received.length;
    await mailer.tick();
    const mailed = sink.received.slice(before);
    expect(mailed.map((mail) => mail.subject)).toEqual(['Sam commented on your entry']);
    // the mail's unsubscribe link: a page with a button, which stops them
    await tab.goto(mailed[0]!.text!.match(/http\S+\/email\/unsubscribe\S+/)![0]);
    await Promise.all([tab.waitForLoadState(), tab.getByRole('button', { name: 'Stop the mails' }).click()]);
    expect(await tab.locator('main').innerText()).toContain('Milepost mails you no more notifications');
    await tab.goto(`${base}/settings`);
    expect(await tab.locator('#frequency').inputValue()).toBe('OFF');
    await context.close();
  });

  it('reports an entry; a moderator hides it from the queue page', async () => {
    const wil = await createPerson(db.prisma, { username: 'wil', displayName: 'Wil' });
    const entry = await createEntry(db.prisma, wil.id, { message: 'Buy cheap pills' });
    const context = await browser.newContext(DESKTOP);
    const tab = await signUp(context, 'uma', 'Uma');
    await tab.goto(`${base}/entries/${entry.id}`);
    await tab.locator('summary', { hasText: 'Report this entry' }).click();
    await tab.fill('#report-entry', 'Spam');
    await Promise.all([tab.waitForURL(/reported=1/), tab.getByRole('button', { name: 'Report to the moderators' }).click()]);
    expect(await tab.locator('[role=status]').first().textContent()).toContain('Reported');
    // Uma is no moderator: to her the queue is not there
    expect((await tab.goto(`${base}/moderation`))!.status()).toBe(404);
    const moderator = await browser.newContext(DESKTOP);
    const modTab = await signUp(moderator, 'vic', 'Vic');
    await db.prisma.person.updateMany({ where: { usernameKey: 'vic' }, data: { role: 'moderator' } });
    await modTab.goto(`${base}/moderation`);
    expect(await modTab.locator('main').innerText()).toContain('Buy cheap pills');
    expect(await axeViolations(modTab)).toEqual([]);
    await Promise.all([modTab.waitForURL(`${base}/moderation`), modTab.getByRole('button', { name: 'Hide the entry' }).click()]);
    expect(await modTab.locator('main').innerText()).toContain('No open reports.');
    expect((await fetch(`${base}/entries/${entry.id}`, { headers: { accept: 'text/html' } })).status).toBe(404);
    await Promise.all([context.close(), moderator.close()]);
  });

  it('mutes and blocks from a person’s page', async () => {
    const pia = await createPerson(db.prisma, { username: 'pia', displayName: 'Pia' });
    const piaToken = await createToken(db.prisma, pia.id);
    await createEntry(db.prisma, pia.id, { message: 'Pia’s long run' });
    const context = await browser.newContext(DESKTOP);
    const tab = await signUp(context, 'oli', 'Oli');
    expect(await tab.locator('main').innerText()).toContain('Pia’s long run');
    await tab.goto(`${base}/people/pia`);
    expect(await axeViolations(tab)).toEqual([]);
    await Promise.all([tab.waitForEvent('load'), tab.getByRole('button', { name: 'Mute' }).click()]);
    expect(await tab.locator('#safety-heading + p').textContent()).toContain('You muted them');
    await tab.goto(`${base}/`);
    expect(await tab.locator('main').innerText()).not.toContain('Pia’s long run');
    await tab.goto(`${base}/people/pia`);
    expect(await tab.locator('main').innerText()).toContain('Pia’s long run');
    // blocking asks first, saying what it does; nothing is done until the athlete confirms
    await Promise.all([tab.waitForEvent('load'), tab.getByRole('button', { name: 'Block', exact: true }).click()]);
    expect(await tab.locator('h1').textContent()).toBe('Block pia?');
    expect(await tab.locator('main').innerText()).toContain('ends any friendship between you');
    expect(await axeViolations(tab)).toEqual([]);
    expect((await fetch(`${base}/people/oli.json`, { headers: { authorization: `Bearer ${piaToken}` } })).status).toBe(200);
    await Promise.all([tab.waitForURL(`${base}/people/pia`), tab.getByRole('button', { name: 'Yes, block @pia' }).click()]);
    expect(await tab.locator('#safety-heading + p').textContent()).toContain('You blocked them');
    // a blocked profile says why it shows nothing, and offers no friendship
    expect(await tab.locator('main').innerText()).toContain('You blocked Pia: their entries are hidden from you');
    expect(await tab.getByRole('button', { name: 'Ask to be friends' }).count()).toBe(0);
    // to Pia, Oli is nobody now
    expect((await fetch(`${base}/people/oli.json`, { headers: { authorization: `Bearer ${piaToken}` } })).status).toBe(404);
    // the settings list whom Oli keeps away, and undo it there
    await tab.goto(`${base}/settings`);
    const keptAway = tab.locator('#kept-away');
    expect(await keptAway.innerText()).toMatch(/Blocked\s+Pia\s+@pia\s+Unblock\s+Muted\s+Pia\s+@pia\s+Unmute/);
    expect(await axeViolations(tab)).toEqual([]);
    await Promise.all([tab.waitForURL(/\/settings/), keptAway.getByRole('button', { name: 'Unblock Pia' }).click()]);
    expect((await fetch(`${base}/people/oli.json`, { headers: { authorization: `Bearer ${piaToken}` } })).status).toBe(200);
    expect(await tab.locator('#kept-away').innerText()).toMatch(/Blocked\s+Nobody\./);
    // a person (not only what they posted) can be reported
    await tab.goto(`${base}/people/pia`);
    await tab.getByText('Report this person').click();
    await tab.fill('#report-person', 'Impersonates a club');
    await Promise.all([tab.waitForURL(/reported=1/), tab.getByRole('button', { name: 'Report to the moderators' }).click()]);
    expect(await tab.locator('.notice').textContent()).toContain('Reported');
    const report = await db.prisma.report.findFirstOrThrow({ where: { targetKind: 'person', targetId: pia.id } });
    expect(report).toMatchObject({ reason: 'Impersonates a club', excerpt: 'Pia (@pia)' });
    await context.close();
  });

  it('refuses a form without its CSRF token, and sends a stranger to log in', async () => {
    const forged = await fetch(`${base}/compose`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=forged',
      redirect: 'manual',
    });
    expect(forged.status).toBe(303);
    expect(forged.headers.get('location')).toBe('/login');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await signUp(context, 'gil', 'Gil');
    const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const response = await fetch(`${base}/compose`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies },
      body: 'message=forged&csrf=wrong',
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    await tab.goto(`${base}/people/gil`);
    expect(await tab.locator('main').innerText()).not.toContain('forged');
    await context.close();
  });

  it('maps the recent entries near a place, each linked to its page', async () => {
    const context = await browser.newContext(DESKTOP);
    const tab = await signUp(context, 'ivo', 'Ivo');
    await tab.fill('#compose-message', 'Coffee by the lake');
    await tab.getByText('Add a place, a track file or a photo').click();
    await tab.fill('#compose-place', 'Lake Merritt');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    // a place name alone has no point; an entry with one is found near it
    const created = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; '),
        'x-csrf': '1',
      },
      body: JSON.stringify({
        query: 'mutation { createEntry(input: { message: "Sunrise lap", lat: 37.8025, lon: -122.2583 }) { entry { url } } }',
      }),
    });
    const url = ((await created.json()) as { data: { createEntry: { entry: { url: string } } } }).data.createEntry.entry.url;
    await tab.goto(`${base}/`);
    await Promise.all([tab.waitForURL(`${base}/nearby`), tab.getByRole('link', { name: 'Entries near a place' }).click()]);
    await tab.fill('#near-lat', '37.80');
    await tab.fill('#near-lon', '-122.26');
    await tab.fill('#near-radius', '5');
    await Promise.all([tab.waitForURL(/\/nearby\?lat=/), tab.getByRole('button', { name: 'Show' }).click()]);
    expect(await tab.locator('main').innerText()).toContain('Sunrise lap');
    await tab.locator('.map-box .leaflet-tile-loaded').first().waitFor();
    expect(await tab.locator('.map-box path.leaflet-interactive').count()).toBe(1);
    // Leaflet's own style sheet is applied (its panes are placed), and the point opens its entry's link
    expect(
      await tab
        .locator('.map-box .leaflet-pane')
        .first()
        .evaluate((pane) => getComputedStyle(pane).position),
    ).toBe('absolute');
    await tab.locator('.map-box path.leaflet-interactive').dispatchEvent('click');
    expect(await tab.locator('.leaflet-popup-content a').getAttribute('href')).toBe(url);
    expect(await axeViolations(tab)).toEqual([]);
    // a point off the globe is said to be, not searched
    const refused = await tab.goto(`${base}/nearby?lat=95&lon=0`);
    expect(refused!.status()).toBe(422);
    expect(await tab.locator('[role=alert]').textContent()).toContain('latitude from -90 to 90');
    await context.close();
  });

  it('lets a comment be deleted by its author or the entry’s, and by nobody else', async () => {
    const [author, commenter, stranger] = await Promise.all(
      ['jo', 'kim', 'lee'].map((username) => createPerson(db.prisma, { username, displayName: username })),
    );
    const [authorToken, commenterToken, strangerToken] = await Promise.all(
      [author!, commenter!, stranger!].map((person) => createToken(db.prisma, person.id)),
    );
    const gql = async (token: string, query: string) =>
      (await (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query }),
        })
      ).json()) as { data: Record<string, { error?: { __typename: string } | null } & Record<string, unknown>> };
    const entry = (await gql(authorToken!, 'mutation { createEntry(input: { message: "Open" }) { entry { databaseId } } }')).data
      .createEntry!.entry as { databaseId: number };
    const comment = async () =>
      (
        (
          await gql(
            commenterToken!,
            `mutation { createComment(input: { entryId: ${entry.databaseId}, body: "Hi" }) { comment { databaseId } } }`,
          )
        ).data.createComment!.comment as { databaseId: number }
      ).databaseId;
    const remove = (token: string, id: number) =>
      gql(token, `mutation { deleteComment(input: { id: ${id} }) { deletedCommentId entry { commentCount } error { __typename } } }`);
    const first = await comment();
    expect((await remove(strangerToken!, first)).data.deleteComment!.error?.__typename).toBe('NotAuthorizedError');
    expect((await remove(commenterToken!, first)).data.deleteComment).toMatchObject({ error: null, entry: { commentCount: 0 } });
    const second = await comment();
    expect((await remove(authorToken!, second)).data.deleteComment!.error).toBeNull();
    expect((await remove(authorToken!, second)).data.deleteComment!.error?.__typename).toBe('NotFoundError');
    // on an entry the viewer may not see, a comment does not exist for them
    const third = await comment();
    await gql(authorToken!, `mutation { updateEntry(input: { id: ${entry.databaseId}, visibility: ONLY_ME }) { error { __typename } } }`);
    expect((await remove(strangerToken!, third)).data.deleteComment!.error?.__typename).toBe('NotFoundError');
  });

  it('pages a popular entry’s comments, newest first on its page, and tells the viewer’s like beyond the likes shown', async () => {
    const host = await createPerson(db.prisma, { username: 'popular', displayName: 'Popular' });
    const entry = await createEntry(db.prisma, host.id, { message: 'Everyone was there' });
    const fans = await Promise.all(Array.from({ length: 60 }, (_, i) => createPerson(db.prisma, { username: `fan${i}` })));
    const start = Date.parse('2026-11-01T00:00:00Z');
    await db.prisma.comment.createMany({
      data: Array.from({ length: 130 }, (_, i) => ({
        entryId: entry.id,
        authorId: fans[i % 60]!.id,
        body: `cheer number ${i + 1} end`,
        createdAt: new Date(start + i * 60_000),
      })),
    });
    await db.prisma.like.createMany({
      data: fans.map((fan, i) => ({ entryId: entry.id, personId: fan.id, createdAt: new Date(start + i * 60_000) })),
    });
    const shown = (html: string) => [...html.matchAll(/cheer number (\d+) end/g)].map((match) => Number(match[1]));
    const older = (html: string) => /href="(\/entries\/\d+\?comments_before=[^"#]+)#comments-heading">Older comments/.exec(html)?.[1];
    const read = async (path: string) => {
      const response = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      return response.text();
    };
    // the page shows the newest 50, oldest of them first, and a link to the ones before
    const first = await read(`/entries/${entry.id}`);
    expect(shown(first)).toEqual(Array.from({ length: 50 }, (_, i) => 81 + i));
    expect(first).not.toContain('Newest comments');
    expect(first).toContain('The latest 50 of 60 likes.');
    const likers = /id="likes-heading"(.*?)<\/section>/s.exec(first)![1]!;
    expect(likers).toContain('Athlete fan59<');
    expect(likers).toContain('Athlete fan10<');
    expect(likers).not.toContain('Athlete fan9<');
    const second = await read(older(first)!.replaceAll('&amp;', '&'));
    expect(shown(second)).toEqual(Array.from({ length: 50 }, (_, i) => 31 + i));
    expect(second).toContain('Newest comments');
    const third = await read(older(second)!.replaceAll('&amp;', '&'));
    expect(shown(third)).toEqual(Array.from({ length: 30 }, (_, i) => 1 + i));
    expect(older(third)).toBeUndefined();
    // a cursor that names nothing is refused as the field it came in, not read as an empty entry
    const bad = await fetch(`${base}/entries/${entry.id}?comments_before=not-a-cursor`, { headers: { accept: 'text/html' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('comments_before');
    // the first fan's like is not among the 50 shown, and still counts as theirs
    const token = await createToken(db.prisma, fans[0]!.id);
    const liked = await (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          query: `{ entry(id: ${entry.id}) { viewerHasLiked likes(last: 50) { edges { node { person { username } } } } } }`,
        }),
      })
    ).json();
    expect(liked.data.entry.viewerHasLiked).toBe(true);
    expect(liked.data.entry.likes.edges.map((edge: { node: { person: { username: string } } }) => edge.node.person.username)).not.toContain(
      'fan0',
    );
    const anonymous = await (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ entry(id: ${entry.id}) { viewerHasLiked } }` }),
      })
    ).json();
    expect(anonymous.data.entry.viewerHasLiked).toBe(false);
  });

  it('lets an entry and a comment be changed by their authors alone, within the bounds of posting them', async () => {
    const [author, commenter] = await Promise.all(['ed_author', 'ed_commenter'].map((username) => createPerson(db.prisma, { username })));
    const [authorToken, commenterToken] = await Promise.all([author!, commenter!].map((person) => createToken(db.prisma, person.id)));
    const gql = async (token: string, query: string) =>
      (await (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query }),
        })
      ).json()) as { data: Record<string, Record<string, unknown> & { error: { __typename: string; issues?: unknown } | null }> };
    const note = (await gql(authorToken!, 'mutation { createEntry(input: { message: "Draft" }) { entry { databaseId } } }')).data
      .createEntry!.entry as { databaseId: number };
    const run = (
      await gql(
        authorToken!,
        'mutation { createEntry(input: { workout: { activityType: RUNNING, title: "Old" } }) { entry { databaseId } } }',
      )
    ).data.createEntry!.entry as { databaseId: number };
    const edit = (token: string, id: number, fields: string) =>
      gql(
        token,
        `mutation { updateEntry(input: { id: ${id}, ${fields} }) { entry { message workout { title } } error { __typename ... on ValidationError { issues { path message } } } } }`,
      );
    expect((await edit(authorToken!, note.databaseId, 'message: "  Final words  "')).data.updateEntry).toMatchObject({
      error: null,
      entry: { message: 'Final words', workout: null },
    });
    expect((await edit(commenterToken!, note.databaseId, 'message: "Mine now"')).data.updateEntry!.error?.__typename).toBe(
      'NotAuthorizedError',
    );
    // a note left with nothing, a title on a note, and a message past its bound are refused by field
    expect((await edit(authorToken!, note.databaseId, 'message: ""')).data.updateEntry!.error).toMatchObject({
      issues: [{ path: 'message' }],
    });
    expect((await edit(authorToken!, note.databaseId, 'workoutTitle: "x"')).data.updateEntry!.error).toMatchObject({
      issues: [{ path: 'workoutTitle' }],
    });
    expect((await edit(authorToken!, note.databaseId, `message: "${'a'.repeat(5001)}"`)).data.updateEntry!.error).toMatchObject({
      issues: [{ path: 'message' }],
    });
    // a workout may lose its message and change its title
    expect((await edit(authorToken!, run.databaseId, 'message: null, workoutTitle: "Hill repeats"')).data.updateEntry).toMatchObject({
      error: null,
      entry: { message: null, workout: { title: 'Hill repeats' } },
    });
    const comment = (
      await gql(
        commenterToken!,
        `mutation { createComment(input: { entryId: ${note.databaseId}, body: "Frist" }) { comment { databaseId } } }`,
      )
    ).data.createComment!.comment as { databaseId: number };
    const change = (token: string, body: string) =>
      gql(
        token,
        `mutation { updateComment(input: { id: ${comment.databaseId}, body: "${body}" }) { comment { body } error { __typename } } }`,
      );
    expect((await change(commenterToken!, ' First ')).data.updateComment).toMatchObject({ error: null, comment: { body: 'First' } });
    // not even the entry's author may put words in a commenter's mouth; an empty comment is no comment
    expect((await change(authorToken!, 'Edited')).data.updateComment!.error?.__typename).toBe('NotAuthorizedError');
    expect((await change(commenterToken!, '   ')).data.updateComment!.error?.__typename).toBe('ValidationError');
    await gql(authorToken!, `mutation { updateEntry(input: { id: ${note.databaseId}, visibility: ONLY_ME }) { error { __typename } } }`);
    expect((await change(commenterToken!, 'Hidden')).data.updateComment!.error?.__typename).toBe('NotFoundError');
  });

  it('says where the viewer stands with each person, in GraphQL (Person.viewerFriendship)', async () => {
    const [me, friend, asked, asking, stranger] = await Promise.all(
      ['vf_me', 'vf_friend', 'vf_asked', 'vf_asking', 'vf_stranger'].map((username) => createPerson(db.prisma, { username })),
    );
    await db.prisma.friendship.createMany({
      data: [
        { personId: me!.id, friendId: friend!.id },
        { personId: friend!.id, friendId: me!.id },
      ],
    });
    await db.prisma.friendRequest.createMany({
      data: [
        { fromId: me!.id, toId: asked!.id },
        { fromId: asking!.id, toId: me!.id },
      ],
    });
    const token = await createToken(db.prisma, me!.id);
    const names = ['vf_me', 'vf_friend', 'vf_asked', 'vf_asking', 'vf_stranger'];
    const query = `{ ${names.map((name) => `${name}: person(username: "${name}") { viewerFriendship }`).join(' ')} }`;
    const answer = (await (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query }),
      })
    ).json()) as { data: Record<string, { viewerFriendship: string | null }> };
    expect(Object.fromEntries(names.map((name) => [name, answer.data[name]!.viewerFriendship]))).toEqual({
      vf_me: null,
      vf_friend: 'FRIENDS',
      vf_asked: 'REQUESTED',
      vf_asking: 'INCOMING',
      vf_stranger: 'NONE',
    });
    expect(stranger).toBeDefined();
  });

  it('answers a browser at a path that leads nowhere with a page, and an app with JSON', async () => {
    const page = await fetch(`${base}/no/such/place`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('does not exist');
    const json = await fetch(`${base}/no/such/place`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});

const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

/** Nothing but Milepost and the tests' tile server (unless `noTiles`) may be reached: every other request is refused. */
async function offline(context: BrowserContext, options: { noTiles?: boolean } = {}): Promise<void> {
  const allowed = new Set([
    new URL(base).origin,
    ...(options.noTiles ? [] : [`http://127.0.0.1:${(tiles.address() as AddressInfo).port}`]),
  ]);
  await context.route('**/*', (route) => (allowed.has(new URL(route.request().url()).origin) ? route.continue() : route.abort()));
}

/** Elements wider than the screen (what makes a page scroll sideways), by tag and class, for the failure message. */
const overflowing = (tab: Page) =>
  tab.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        // what a clipping box (a map, a scrolling table) hides does not widen the page
        return box.width > 0 && box.right > window.innerWidth + 1 && !element.closest('.leaflet-container, .scroll');
      })
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  );

describe.skipIf(!haveChromium)('the athlete’s app on a phone and a desktop', () => {
  for (const [device, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`on a ${device}: maps draw their lines, nothing scrolls sideways, the header holds search, the bell and every link`, async () => {
      const suffix = device === 'phone' ? 'p' : 'd';
      const context = await browser.newContext(options);
      await offline(context);
      const tab = await signUp(context, `wren${suffix}`, 'Wren Featherstonehaugh-Llewellyn');
      // a workout with a photo and a GPX file, its figures left blank: the file's are taken
      await tab.check('input[name=kind][value=workout]');
      await tab.getByText('Add a place, a track file or a photo').click();
      await tab.setInputFiles('#compose-track', GPX_FILE);
      await tab.setInputFiles('#compose-photo', { name: 'hill.jpg', mimeType: 'image/jpeg', buffer: photo });
      await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
      const entryUrl = tab.url();
      expect(await tab.locator('main p.workout').innerText()).toMatch(/^Running · [\d.]+ mi · \d+:\d\d/);
      // the title once (the page's heading), not again as the card's
      const title = (await tab.locator('h1').textContent())!;
      const titlesShown = await tab.evaluate(
        (text) =>
          [...document.querySelectorAll('main h1, main h2')].filter((h) => h.textContent === text && h.getBoundingClientRect().width > 2)
            .length,
        title,
      );
      expect(titlesShown).toBe(1);
      // the map's line is drawn: Leaflet's overlay has a size, and so has the line in it
      await tab.locator('.map-box .leaflet-tile-loaded').first().waitFor();
      const overlay = await tab.locator('.map-box .leaflet-overlay-pane svg').boundingBox();
      expect(overlay!.width).toBeGreaterThan(50);
      const line = await tab.locator('.map-box path.track-line').boundingBox();
      expect(line!.width + line!.height).toBeGreaterThan(20);
      await tab.screenshot({ path: `${ARTIFACTS}app-${device}-entry.png`, fullPage: true });
      // a token on the account page (its table was 558 px wide on a phone)
      await tab.goto(`${base}/account`);
      await tab.fill('#token-name', 'A script with a rather long name');
      await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Make a token' }).click()]);
      // the feed card draws the track
      await tab.goto(`${base}/`);
      expect(await tab.locator('.entry a.thumb svg path').count()).toBeGreaterThan(0);
      const widths = device === 'phone' ? [360, 390, 430] : [1280];
      // shoes added on the settings page, with their long form of activities
      await tab.goto(`${base}/settings`);
      await tab.locator('#gear summary').click();
      await tab.fill('#new-gear-name', `Road shoes ${device}`);
      await tab.check('input[name=default_running]');
      await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Add gear' }).click()]);
      const gearPath = await tab.locator('#gear a[href^="/gear/"]').last().getAttribute('href');
      for (const path of [
        '/',
        entryUrl,
        '/settings',
        '/account',
        '/notifications',
        `/people/wren${suffix}`,
        `/people/wren${suffix}/stats`,
        '/nearby',
        '/search?q=wren',
        gearPath!,
      ]) {
        for (const width of widths) {
          await tab.setViewportSize({ width, height: 844 });
          await tab.goto(path.startsWith('http') ? path : `${base}${path}`);
          expect(await overflowing(tab), `${path} at ${width} px`).toEqual([]);
          expect(await fitsTheScreen(tab), `${path} at ${width} px`).toBe(true);
        }
        expect(await axeViolations(tab), path).toEqual([]);
        await tab.screenshot({
          path: `${ARTIFACTS}app-${device}${(path === '/' ? '/home' : path).replace(/^http:\/\/[^/]+/, '').replace(/\W+/g, '-')}.png`,
          fullPage: true,
        });
      }
      // the header: the bell is drawn (no emoji font needed), search is there, and Log out is in reach
      await tab.setViewportSize(options.viewport);
      await tab.goto(`${base}/`);
      expect(await tab.locator('header .bell svg').count()).toBe(1);
      expect(await tab.locator('header .bell').innerText()).not.toMatch(/\p{Extended_Pictographic}/u);
      const logOut = tab.locator('header button:visible', { hasText: 'Log out' });
      if (device === 'phone') {
        expect(await logOut.count()).toBe(0);
        await tab.locator('header summary', { hasText: 'Menu' }).click();
      }
      const box = await logOut.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(options.viewport.width);
      await tab.screenshot({ path: `${ARTIFACTS}app-${device}-header.png` });
      await tab.fill('#search-q', 'wren');
      await Promise.all([tab.waitForURL(/\/search\?q=wren/), tab.locator('header form.find button').click()]);
      expect(await tab.locator('main').innerText()).toContain('Wren Featherstonehaugh-Llewellyn');
      await context.close();
      // ten pages at up to three widths, each checked by axe and photographed: about 19 s on an idle
      // machine, past the default 30 s with the suite's other files beside it on two cores
    }, 60_000);
  }

  it('without tiles, a map keeps the server’s drawing and says how to set MAP_TILE_URL; the nearby map never says it needs script', async () => {
    const context = await browser.newContext(DESKTOP);
    await offline(context, { noTiles: true });
    const tab = await signUp(context, 'tilde', 'Tilde');
    await tab.getByText('Add a place, a track file or a photo').click();
    await tab.setInputFiles('#compose-track', GPX_FILE);
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    const note = tab.locator('.tiles-unavailable');
    await note.waitFor();
    expect(await note.textContent()).toContain('MAP_TILE_URL');
    expect(await tab.locator('svg.track-map').isVisible()).toBe(true);
    expect(await tab.locator('.map-box').isVisible()).toBe(false);
    expect(await axeViolations(tab)).toEqual([]);
    await tab.screenshot({ path: `${ARTIFACTS}app-no-tiles.png`, fullPage: true });
    await tab.goto(`${base}/nearby?lat=37.80&lon=-122.26&radius=50`);
    expect(await tab.locator('main').innerText()).not.toContain('needs script');
    await context.close();
  });

  it('a new athlete lands on the feed, reads distances as their browser’s language suggests, and meets people', async () => {
    for (const [locale, units] of [
      ['de-DE', 'kilometers'],
      ['en-US', 'miles'],
    ] as const) {
      const context = await browser.newContext({ ...PHONE, locale });
      await offline(context);
      const tab = await context.newPage();
      await tab.goto(`${base}/signup`);
      await tab.fill('#username', `new${locale.slice(0, 2)}`);
      await tab.fill('#display_name', `New ${locale}`);
      await tab.fill('#password', PASSWORD);
      await Promise.all([tab.waitForURL(`${base}/`), tab.click('main button[type=submit]')]);
      // choosing "A workout" shows its fields at once, in the units of the browser's language
      await tab.check('input[name=kind][value=workout]');
      expect(await tab.locator('#compose-distance-units').isVisible()).toBe(true);
      expect(await tab.inputValue('#compose-distance-units')).toBe(units);
      // people posting lately are suggested to someone with no friends yet
      expect(await tab.locator('#suggestions-heading').textContent()).toBe('People you may know');
      expect(await tab.locator('main').innerText()).toContain('posting often lately');
      await context.close();
    }
  });

  it('reads “When” in the athlete’s time zone (or the browser’s), and shows a workout’s own date on its card', async () => {
    const context = await browser.newContext({ ...DESKTOP, timezoneId: 'America/New_York' });
    await offline(context);
    const tab = await signUp(context, 'zed', 'Zed');
    const post = async (when: string) => {
      await tab.goto(`${base}/`);
      await tab.check('input[name=kind][value=workout]');
      await tab.fill('#compose-distance', '5');
      await tab.fill('#compose-date', when);
      await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
      const id = Number(new URL(tab.url()).pathname.split('/').pop());
      return (await db.prisma.workout.findUniqueOrThrow({ where: { entryId: id } })).completedAt!.toISOString();
    };
    // no zone of her own: the browser's (New York, UTC-4 in June)
    expect(await tab.locator('#compose-date-help').textContent()).toContain('set your time zone');
    expect(await post('2026-06-01T08:00')).toBe('2026-06-01T12:00:00.000Z');
    expect(await tab.locator('main p.workout').innerText()).toContain('done 2026-06-01 12:00 UTC');
    // her own zone, once set, is the one
    await tab.goto(`${base}/settings`);
    await tab.fill('#time_zone', 'Europe/Berlin');
    await Promise.all([tab.waitForURL(/saved=profile/), tab.getByRole('button', { name: 'Save', exact: true }).click()]);
    await tab.goto(`${base}/`);
    expect(await tab.locator('#compose-date-help').textContent()).toContain('Europe/Berlin');
    expect(await post('2026-06-01T08:00')).toBe('2026-06-01T06:00:00.000Z');
    await context.close();
  });

  it('tells of a friend request with Accept and Decline, and of a comment with its entry and its words', async () => {
    const context = await browser.newContext(PHONE);
    await offline(context);
    const tab = await signUp(context, 'noor', 'Noor');
    await tab.fill('#compose-message', 'Track night with the club');
    await Promise.all([tab.waitForURL(/\/entries\/\d+$/), tab.click('form.compose button[type=submit]')]);
    const entryId = Number(new URL(tab.url()).pathname.split('/').pop());
    const otto = await createPerson(db.prisma, { username: 'otto', displayName: 'Otto' });
    const ottoToken = await createToken(db.prisma, otto.id);
    const asOtto = (query: string) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ottoToken}` },
        body: JSON.stringify({ query }),
      });
    await asOtto('mutation { requestFriend(input: { username: "noor" }) { error { __typename } } }');
    await asOtto(
      `mutation { createComment(input: { entryId: ${entryId}, body: "See you at the track, 7 sharp" }) { error { __typename } } }`,
    );
    await tab.goto(`${base}/notifications`);
    const comment = tab.locator('ul.notifications li', { hasText: 'commented' });
    expect(await comment.innerText()).toContain('Track night with the club');
    expect(await comment.locator('blockquote.said').textContent()).toBe('See you at the track, 7 sharp');
    expect(await axeViolations(tab)).toEqual([]);
    await tab.screenshot({ path: `${ARTIFACTS}app-phone-notifications.png`, fullPage: true });
    await Promise.all([tab.waitForURL(`${base}/notifications`), tab.getByRole('button', { name: "Accept Otto's friend request" }).click()]);
    expect(await tab.getByRole('button', { name: /Accept Otto/ }).count()).toBe(0);
    expect(await db.prisma.friendship.count({ where: { personId: otto.id } })).toBe(1);
    await context.close();
  });

  it('places a privacy zone where the browser says the athlete is', async () => {
    const context = await browser.newContext({
      ...DESKTOP,
      geolocation: { latitude: 52.52, longitude: 13.405 },
      permissions: ['geolocation'],
    });
    await offline(context);
    const tab = await signUp(context, 'gaia', 'Gaia');
    await tab.goto(`${base}/settings`);
    await tab.getByRole('button', { name: 'Use my location' }).click();
    await expect.poll(() => tab.inputValue('#zone_lat')).toBe('52.52000');
    expect(await tab.inputValue('#zone_lon')).toBe('13.40500');
    expect(await tab.locator('.map-box path.new-zone').count()).toBe(1);
    await context.close();
  });

  it('draws stats in one unit with room for their labels, and tells an athlete with none how to start', async () => {
    const context = await browser.newContext(DESKTOP);
    await offline(context);
    const tab = await signUp(context, 'stat', 'Stat');
    await tab.goto(`${base}/people/stat`);
    expect(await tab.locator('.empty-chart').first().textContent()).toContain('No distance in this time yet');
    expect(await tab.locator('svg.distance-chart').count()).toBe(0);
    // a 160 km week: a three-digit label, and a half-way mark under one kilometre... of the same unit
    const stat = await db.prisma.person.findUniqueOrThrow({ where: { usernameKey: 'stat' } });
    await db.prisma.person.update({ where: { id: stat.id }, data: { units: 'kilometers' } });
    await createEntry(db.prisma, stat.id, {
      message: 'Long ride',
      workout: { activityType: 'cycling', distanceValue: 160, distanceUnits: 'kilometers' },
    });
    await tab.goto(`${base}/people/stat`);
    const labels = tab.locator('svg.distance-chart > text[text-anchor=end]');
    expect(await labels.allTextContents()).toEqual(['0 km', '100 km', '200 km']);
    const chart = (await tab.locator('svg.distance-chart').boundingBox())!;
    for (const label of await labels.all()) expect((await label.boundingBox())!.x).toBeGreaterThanOrEqual(chart.x);
    await context.close();
  });

  it('offers a logged-out visitor at an entry kept to friends to log in, on the page a missing entry gets', async () => {
    const owner = await createPerson(db.prisma, { username: 'priv' });
    const kept = await createEntry(db.prisma, owner.id, { message: 'For friends', visibility: 'friends' });
    const context = await browser.newContext(PHONE);
    await offline(context);
    const tab = await context.newPage();
    for (const id of [kept.id, 99_999_999]) {
      const response = await tab.goto(`${base}/entries/${id}`);
      expect(response!.status()).toBe(404);
      const logIn = tab.getByRole('link', { name: 'Log in', exact: true }).last();
      expect(await logIn.getAttribute('href')).toBe(`/login?next=${encodeURIComponent(`/entries/${id}`)}`);
    }
    await context.close();
  });
});
