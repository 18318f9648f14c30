// Content negotiation at the HTTP edge: a path's extension (`.json`, `.gpx`), what an Accept header
// allows, and whether a browser asks for a page (SPEC 4.1, COMPAT.md).

/**
 * Splits `/entries/12.json` into `/entries/12` and `json`; a path without an extension has none. In
 * the nearby path the coordinates' decimals are digits and an extension is letters, so
 * `/entries/nearby/37.77916,-122.420049` has none (the Ruby client sends exactly that).
 */
export function splitExtension(pathname: string): { path: string; extension: string | null } {
  const nearby = /^(\/entries\/nearby\/-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?)(?:\.([A-Za-z][A-Za-z0-9]*))?$/.exec(pathname);
  if (nearby) return { path: nearby[1]!, extension: nearby[2]?.toLowerCase() ?? null };
  const match = /^(.*\/[^/.]+)\.([A-Za-z0-9]+)$/.exec(pathname);
  return match ? { path: match[1]!, extension: match[2]!.toLowerCase() } : { path: pathname, extension: null };
}

/** Whether an Accept header allows `type` (exact, `type/*` or `*\/*`, with q > 0). */
export function accepts(accept: string | null, type: string): boolean {
  if (!accept || accept.trim() === '') return true;
  const [major] = type.split('/');
  return accept.split(',').some((part) => {
    const [range, ...params] = part
      .trim()
      .split(';')
      .map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) <= 0) return false;
    return range === type || range === '*/*' || range === `${major}/*`;
  });
}

/**
 * Whether a request asks for a page rather than data: its Accept header names text/html (or XHTML)
 * explicitly, with a quality at least that of JSON. Browsers do; API clients (no header, `*\/*`,
 * `application/json`) keep getting JSON from the paths that serve both.
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [range, ...params] = part
      .trim()
      .split(';')
      .map((p) => p.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (range === 'text/html' || range === 'application/xhtml+xml') html = Math.max(html, q);
    if (range === 'application/json') json = Math.max(json, q);
  }
  return html > 0 && html >= json;
}
