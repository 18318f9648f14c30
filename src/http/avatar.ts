// A generated avatar for people who set no photo: their initial on a colour derived from the username,
// so every `photo_url` resolves to a picture.
import { createHash } from 'node:crypto';
import { escapeMarkup } from '../domain/markup.ts';

export function avatarSvg(username: string): Response {
  const hue = createHash('sha256').update(username.toLowerCase()).digest()[0]! * (360 / 256);
  const initial = escapeMarkup((username.match(/[A-Za-z0-9]/)?.[0] ?? '?').toUpperCase());
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${escapeMarkup(username)}">` +
    `<rect width="128" height="128" rx="64" fill="hsl(${Math.round(hue)}, 55%, 42%)"/>` +
    `<text x="64" y="84" font-family="system-ui, sans-serif" font-size="60" font-weight="600" fill="#fff" text-anchor="middle">${initial}</text></svg>`;
  return new Response(svg, {
    status: 200,
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
  });
}
