// Where webhooks may go: public internet addresses only. A webhook URL is chosen by an app developer,
// so without this a registration could make Milepost POST to its own loopback, the private network
// or a cloud metadata service (SSRF). Checked at registration, and again at delivery on the address
// the name resolves to then, which is the address the connection uses (no second look-up to rebind).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::127.0.0.1): an IPv4 address in disguise
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2002::', 16], // 6to4: an IPv4 address inside (2002:7f00:1::)
  ['2001::', 32], // Teredo: an IPv4 address inside, obfuscated
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['fd00:ec2::', 32], // AWS metadata over IPv6
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // an IPv4 address mapped into IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return isPublicAddress(mapped);
    // the same in hex (::ffff:7f00:1)
    const hex = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hex) {
      const high = Number.parseInt(hex[1]!, 16);
      const low = Number.parseInt(hex[2]!, 16);
      return isPublicAddress(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
    }
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

export class PrivateAddressError extends Error {
  override name = 'PrivateAddressError';
}

function lookupAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/** Why `url`'s host may not receive webhooks, or null. Resolves names: every address must be public. */
export async function webhookTargetProblem(url: string): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? null : `${host} is not a public internet address`;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is not a public internet address`;
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host);
  } catch {
    return `${host} does not resolve`;
  }
  const inner = addresses.find((a) => !isPublicAddress(a.address));
  return inner ? `${host} resolves to ${inner.address}, which is not a public internet address` : null;
}

/** A `lookup` for node:http that refuses names resolving to a private address (checked at connect time). */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const inner = list.find((a) => !isPublicAddress(a.address));
    if (inner || list.length === 0)
      return callback(
        new PrivateAddressError(`${hostname} resolves to ${inner?.address ?? 'nothing'}, which is not a public internet address`),
        '',
        0,
      );
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
