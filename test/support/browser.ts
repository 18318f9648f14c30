// A minimal browser for in-process page tests: keeps cookies, submits forms with their CSRF token,
// and never follows redirects, so tests see every Location.
import { CSRF_COOKIE } from '../../src/auth/session.ts';
import { BASE } from './app.ts';

export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly fetchApp: (path: string, init?: RequestInit) => Promise<Response>) {}

  private remember(response: Response): Response {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = decodeURIComponent(pair!.slice(eq + 1));
      if (attributes.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    return { ...(cookie ? { cookie } : {}), ...extra };
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async get(path: string): Promise<Response> {
    return this.remember(
      await this.fetchApp(path.startsWith(BASE) ? path.slice(BASE.length) : path, { headers: this.headers({ accept: 'text/html' }) }),
    );
  }

  /**
   * Posts a form; the CSRF token of the pages seen so far is added unless `csrf: null` is given. A list
   * is sent as a field repeated, as ticked checkboxes of one name are.
   */
  async post(path: string, fields: Record<string, string | readonly string[] | null>): Promise<Response> {
    if (!this.cookies.has(CSRF_COOKIE)) await this.get('/login');
    const form = new URLSearchParams();
    const withCsrf = { csrf: this.cookies.get(CSRF_COOKIE)!, ...fields };
    for (const [k, v] of Object.entries(withCsrf))
      for (const value of v === null ? [] : typeof v === 'string' ? [v] : v) form.append(k, value);
    return this.remember(
      await this.fetchApp(path, {
        method: 'POST',
        headers: this.headers({ 'content-type': 'application/x-www-form-urlencoded' }),
        body: form.toString(),
      }),
    );
  }

  /** Posts a multipart form (a file upload), the CSRF token first as the pages place it. */
  async postMultipart(
    path: string,
    fields: Record<string, string>,
    files: Record<string, { name: string; bytes: Uint8Array }>,
  ): Promise<Response> {
    if (!this.cookies.has(CSRF_COOKIE)) await this.get('/login');
    const form = new FormData();
    form.set('csrf', this.cookies.get(CSRF_COOKIE)!);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    for (const [k, file] of Object.entries(files)) form.set(k, new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
    return this.remember(await this.fetchApp(path, { method: 'POST', headers: this.headers(), body: form }));
  }

  async logIn(username: string, password: string): Promise<Response> {
    await this.get('/login');
    return this.post('/login', { username, password });
  }
}
