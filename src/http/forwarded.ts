// What a trusted proxy reports of the original request: its scheme. With TRUST_PROXY hops, the value
// the nearest of them wrote is the one that counts (a list grows left to right as proxies append, and a
// client may put anything at its start): `X-Forwarded-Proto: https, http` behind one proxy is http.

/** The scheme the trusted proxies report, or null when none is trusted or it is not http(s). */
export function forwardedScheme(header: string | null | undefined, trustProxy: number): 'http' | 'https' | null {
  if (trustProxy <= 0 || !header) return null;
  const values = header
    .split(',')
    .map((value) => value.trim().toLowerCase())
    .filter(Boolean);
  const reported = values[Math.max(0, values.length - trustProxy)];
  return reported === 'http' || reported === 'https' ? reported : null;
}
