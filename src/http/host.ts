// The Host header, judged before a request URL is made of it: the fetch-API side builds every
// request's URL from it, and a Host such as `a b`, `x:99999` or `[::1` made that URL throw (a 500 with
// a stack trace, on every path), while `x/metrics?` made `GET /entries.json` route as `/metrics`.
import { isIPv6 } from 'node:net';

const NAME = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/;

/** Whether `host` is `name[:port]` or `[IPv6][:port]`, with a port of 1 to 65535. */
export function isValidHost(host: string): boolean {
  let name = host;
  let port: string | null = null;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return false;
    name = host.slice(1, close);
    const rest = host.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return false;
      port = rest.slice(1);
    }
    if (!isIPv6(name)) return false;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) {
      name = host.slice(0, colon);
      port = host.slice(colon + 1);
    }
    if (!NAME.test(name)) return false;
  }
  if (port === null) return true;
  return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535;
}
