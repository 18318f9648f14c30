// End to end in a real browser (Debian's Chromium through playwright-core): a person signs up,
// registers an app, and authorizes it through both flows of SPEC 5, while a small third-party app
// on its own port does what a real one does with the code and the token.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, listen } from '../../src/app/server.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  // .ci/run installs it: in CI a missing browser is a broken machine, not a reason to skip
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run should have installed Debian's chromium`);
  console.log(`[milepost] ${CHROMIUM} is missing (apt-get install chromium): the browser test is skipped.`);
}

let db: TestDatabase;
let milepost: Server;
let thirdParty: Server;
let browser: Browser;
let milepostUrl = '';
let appUrl = '';
const credentials = { clientId: '', clientSecret: '' };
/** The second app's: it asks for every scope and keeps the tokens it gets, as a server-side app does. */
const scoped = { clientId: '', clientSecret: '', accessToken: '', refreshToken: '', firstRefreshToken: '' };

const port = (server: Server) => (server.address() as AddressInfo).port;

/** The third-party app: starts the flows, and on the code callback exchanges the code and reads `me`. */
function thirdPartyApp(): Server {
  return createServer(async (req, res) => {
    const url = new URL(req.url!, appUrl);
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body>${body}</body></html>`);
    };
    if (url.pathname === '/start') {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: credentials.clientId,
        redirect_uri: `${appUrl}/callback`,
        state: 'csrf-123',
      });
      res.writeHead(302, { location: `${milepostUrl}/oauth/authorize?${params}` });
      return res.end();
    }
    if (url.pathname === '/start-implicit') {
      const params = new URLSearchParams({
        response_type: 'token',
        client_id: credentials.clientId,
        redirect_uri: `${appUrl}/implicit`,
        state: 'ua-456',
      });
      res.writeHead(302, { location: `${milepostUrl}/oauth/authorize?${params}` });
      return res.end();
    }
    if (url.pathname === '/callback') {
      const token = await fetch(`${milepostUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: url.searchParams.get('code') ?? '',
          redirect_uri: `${appUrl}/callback`,
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
        }),
      }).then((r) => r.json() as Promise<{ access_token?: string; error?: string }>);
      if (!token.access_token) return html(`<p id="result">token error: ${token.error}</p>`);
      const me = await fetch(`${milepostUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ query: '{ me { username displayName } }' }),
      }).then((r) => r.json() as Promise<{ data: { me: { username: string; displayName: string } } }>);
      return html(`<p id="result">Hello ${me.data.me.displayName} (@${me.data.me.username}), state ${url.searchParams.get('state')}</p>`);
    }
    const tokenRequest = (fields: Record<string, string>) =>
      fetch(`${milepostUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: scoped.clientId, client_secret: scoped.clientSecret, ...fields }),
      }).then(
        (r) => r.json() as Promise<{ access_token?: string; refresh_token?: string; scope?: string; expires_in?: number; error?: string }>,
      );
    if (url.pathname === '/start-scoped') {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: scoped.clientId,
        redirect_uri: `${appUrl}/scoped-callback`,
        scope: 'read read_all entries:write profile:write',
        state: 'scoped-789',
      });
      res.writeHead(302, { location: `${milepostUrl}/oauth/authorize?${params}` });
      return res.end();
    }
    if (url.pathname === '/scoped-callback') {
      const token = await tokenRequest({
        grant_type: 'authorization_code',
        code: url.searchParams.get('code') ?? '',
        redirect_uri: `${appUrl}/scoped-callback`,
      });
      if (!token.access_token) return html(`<p id="result">token error: ${token.error}</p>`);
      scoped.accessToken = token.access_token;
      scoped.refreshToken = scoped.firstRefreshToken = token.refresh_token ?? '';
      // what the app may do with it: post, yes; change the profile, no
      const tried = await fetch(`${milepostUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({
          query: `mutation {
            createEntry(input: { message: "from the app" }) { entry { id } error { __typename } }
            updateProfile(input: { displayName: "Renamed by the app" }) { error { __typename ... on InsufficientScopeError { scope } } }
          }`,
        }),
      }).then(
        (r) =>
          r.json() as Promise<{
            data: { createEntry: { entry: { id: string } | null }; updateProfile: { error: { __typename: string; scope: string } | null } };
          }>,
      );
      return html(`<p id="scope">${token.scope}</p><p id="expires">${token.expires_in}</p>
        <p id="posted">${tried.data.createEntry.entry ? 'posted' : 'refused'}</p>
        <p id="profile">${tried.data.updateProfile.error ? `${tried.data.updateProfile.error.__typename} ${tried.data.updateProfile.error.scope}` : 'changed'}</p>`);
    }
    if (url.pathname === '/refresh' || url.pathname === '/replay') {
      const token = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: url.pathname === '/refresh' ? scoped.refreshToken : scoped.firstRefreshToken,
      });
      if (!token.access_token) return html(`<p id="result">${token.error}</p>`);
      const rotated = token.refresh_token !== scoped.refreshToken;
      scoped.accessToken = token.access_token;
      scoped.refreshToken = token.refresh_token ?? '';
      return html(`<p id="result">refreshed ${token.scope}${rotated ? ', rotated' : ''}</p>`);
    }
    if (url.pathname === '/implicit') {
      // a browser script reads the token from the fragment, which never reaches this server
      return html(`<p id="result"></p><script>
        const p = new URLSearchParams(location.hash.slice(1));
        document.getElementById('result').textContent = p.get('access_token') ? 'token ' + p.get('token_type') + ' ' + p.get('state') : 'no token';
      </script>`);
    }
    res.writeHead(404).end();
  });
}

beforeAll(async () => {
  if (!haveChromium) return;
  db = await createTestDatabase('browser');
  const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0' });
  milepost = await listen(createApp(config, db), config);
  milepostUrl = `http://127.0.0.1:${port(milepost)}`;
  thirdParty = thirdPartyApp();
  await new Promise<void>((resolve) => thirdParty.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${port(thirdParty)}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  if (!haveChromium) return;
  await browser?.close();
  thirdParty?.close();
  milepost?.closeAllConnections();
  await new Promise((resolve) => milepost?.close(resolve));
  await db.destroy();
});

describe.skipIf(!haveChromium)('in Chromium', () => {
  it('GraphiQL runs a query with nothing fetched from outside Milepost, under its own Content-Security-Policy', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const refused: string[] = [];
    // a machine without internet: any request leaving the origin fails, and is noted
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(milepostUrl) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const response = await page.goto(`${milepostUrl}/graphql`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('publicStream'), undefined, {
      timeout: 30_000,
    });
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  }, 90_000);

  it('sign up → register an app → authorize (code flow) → the app reads `me`; then the user-agent flow', async () => {
    const page = await browser.newPage();
    await page.goto(`${milepostUrl}/signup`);
    await page.fill('#username', 'browserrunner');
    await page.fill('#display_name', 'Browser R.');
    await page.fill('#password', 'a good long password');
    await page.click('button[type=submit]');
    await page.waitForURL(`${milepostUrl}/`);

    await page.goto(`${milepostUrl}/developers/apps`);
    await page.fill('#name', 'Interval Coach');
    await page.fill('#redirect_uris', `${appUrl}/callback\n${appUrl}/implicit`);
    // the user-agent flow below is legacy: opt-in per app
    await page.check('input[name=allow_implicit]');
    await page.click('form[action="/developers/apps"] button[type=submit]');
    credentials.clientId = (await page.textContent('#client-id'))!.trim();
    credentials.clientSecret = (await page.textContent('#client-secret'))!.trim();
    expect(credentials.clientSecret.length).toBeGreaterThan(30);

    await page.goto(`${appUrl}/start`);
    await expect.poll(() => page.textContent('h1')).toContain('Interval Coach');
    await page.click('button[value=approve]');
    await page.waitForURL(new RegExp(`^${appUrl}/callback`));
    expect(await page.textContent('#result')).toBe('Hello Browser R. (@browserrunner), state csrf-123');

    await page.goto(`${appUrl}/start-implicit`);
    await page.click('button[value=approve]');
    await page.waitForURL(new RegExp(`^${appUrl}/implicit#`));
    expect(await page.textContent('#result')).toBe('token bearer ua-456');
    const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
    const csrf = { headers: { 'x-graphql-yoga-csrf': '1' } };
    const me = await fetch(
      `${milepostUrl}/graphql?oauth_token=${fragment.get('access_token')}&query=${encodeURIComponent('{ me { username } }')}`,
      csrf,
    );
    expect(await me.json()).toEqual({ data: { me: { username: 'browserrunner' } } });

    // the person sees both grants on their account page and can revoke the app
    await page.goto(`${milepostUrl}/account`);
    expect(await page.textContent('main')).toContain('Interval Coach');
    await page.click('button[aria-label="Revoke access of Interval Coach"]');
    await page.waitForURL(`${milepostUrl}/account`);
    const after = await fetch(
      `${milepostUrl}/graphql?oauth_token=${fragment.get('access_token')}&query=${encodeURIComponent('{ me { username } }')}`,
      csrf,
    );
    expect(after.status).toBe(401);
    await page.close();
  }, 60_000);
  it('the athlete grants fewer scopes than the app asks for; the app refreshes, rotating, and a replayed refresh token ends the grant', async () => {
    const page = await browser.newPage();
    await page.goto(`${milepostUrl}/signup`);
    await page.fill('#username', 'scopedrunner');
    await page.fill('#display_name', 'Scoped S.');
    await page.fill('#password', 'a good long password');
    await page.click('button[type=submit]');
    await page.waitForURL(`${milepostUrl}/`);
    await page.goto(`${milepostUrl}/developers/apps`);
    await page.fill('#name', 'Scoped Coach');
    await page.fill('#redirect_uris', `${appUrl}/scoped-callback`);
    await page.click('form[action="/developers/apps"] button[type=submit]');
    scoped.clientId = (await page.textContent('#client-id'))!.trim();
    scoped.clientSecret = (await page.textContent('#client-secret'))!.trim();

    await page.goto(`${appUrl}/start-scoped`);
    await expect.poll(() => page.textContent('h1')).toContain('Scoped Coach');
    // the page says in words what the app asks for; reading is always granted
    const asked = page.locator('ul.scopes li');
    await expect.poll(() => asked.count()).toBe(4);
    expect(await page.locator('ul.scopes input[type=checkbox]:disabled').count()).toBe(1);
    await page.uncheck('input[name=grant][value=read_all]');
    await page.uncheck('input[name="grant"][value="profile:write"]');
    await page.click('button[value=approve]');
    await page.waitForURL(new RegExp(`^${appUrl}/scoped-callback`));
    expect(await page.textContent('#scope')).toBe('read entries:write');
    expect(Number(await page.textContent('#expires'))).toBeGreaterThan(0);
    expect(await page.textContent('#posted')).toBe('posted');
    expect(await page.textContent('#profile')).toBe('InsufficientScopeError profile:write');

    // the account page lists the grant with what it allows
    await page.goto(`${milepostUrl}/account`);
    const grant = page.locator('tr', { hasText: 'Scoped Coach' });
    expect(await grant.locator('ul.scopes code').allTextContents()).toEqual(['read', 'entries:write']);

    await page.goto(`${appUrl}/refresh`);
    expect(await page.textContent('#result')).toBe('refreshed read entries:write, rotated');
    const me = () =>
      fetch(`${milepostUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${scoped.accessToken}` },
        body: JSON.stringify({ query: '{ me { username } }' }),
      });
    expect(await (await me()).json()).toEqual({ data: { me: { username: 'scopedrunner' } } });
    // the first refresh token, used again past the reuse window (30 s; within it, the same new pair):
    // someone copied it; the whole grant's family is revoked
    await db.prisma.oAuthAccessToken.updateMany({
      where: { refreshedAt: { not: null } },
      data: { refreshedAt: new Date(Date.now() - 31_000) },
    });
    await page.goto(`${appUrl}/replay`);
    expect(await page.textContent('#result')).toBe('invalid_grant');
    expect((await me()).status).toBe(401);
    await page.goto(`${appUrl}/refresh`);
    expect(await page.textContent('#result')).toBe('invalid_grant');
    await page.close();
  }, 60_000);

  it('the account page passes axe-core on a phone, and deletes the account when the password confirms it', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${milepostUrl}/signup`);
    await page.fill('#username', 'leaving');
    await page.fill('#display_name', 'Leaving L.');
    await page.fill('#password', 'a good long password');
    await page.click('button[type=submit]');
    // sign-up lands on the feed; the account page is one click away
    await page.waitForURL(`${milepostUrl}/`);
    await page.goto(`${milepostUrl}/account`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.addScriptTag({ content: readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8') });
    const violations = await page.evaluate(async () => {
      const result = await (
        window as unknown as { axe: { run: (options: object) => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }
      ).axe.run({ resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}account.png`, fullPage: true });
    // the red button asks for a tick first: without it the browser submits nothing
    await page.getByLabel('Your password, to confirm').fill('not the password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    expect(await page.textContent('h1')).toBe('Hello, Leaving L.');
    expect(await page.getByLabel('Your password, to confirm').evaluate((input: HTMLInputElement) => input.value)).toBe('not the password');
    await page.getByLabel('I understand that nothing can be restored').check();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    expect(await page.textContent('main')).toContain('is not your password');
    // said at the top of the page, where it opens, with a link down to the form
    expect(await page.locator('main > p.error[role=alert]').textContent()).toContain('see why below');
    await page.getByLabel('I understand that nothing can be restored').check();
    await page.getByLabel('Your password, to confirm').fill('a good long password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    expect(await page.textContent('h1')).toBe('Your account is deleted');
    const gone = await fetch(`${milepostUrl}/people/leaving.json`);
    expect(gone.status).toBe(404);
    await context.close();
  }, 60_000);
});
