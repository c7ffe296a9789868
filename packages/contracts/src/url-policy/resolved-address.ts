// The same ranges judged on an address a name resolved to (the DNS answer a delivery is about to use),
// not on a URL: a public name may resolve to a private address, and only the resolution tells.
import { ipv4Refusal, ipv6Refusal } from './address-ranges';
import { parseIpv4, parseIpv6 } from './ip-address';

/** Why a resolved address must not be connected to, or null for a public one. */
export function resolvedAddressProblem(address: string): string | null {
  if (address.includes(':')) {
    const words = parseIpv6(`[${address}]`);
    return words ? ipv6Refusal(words) : `the address ${address} is not valid IPv6`;
  }
  const ipv4 = parseIpv4(address);
  return ipv4 === null ? `the address ${address} is not valid IPv4` : ipv4Refusal(ipv4);
}

/** Whether a resolved address is a loopback one (127.0.0.0/8, ::1, or ::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^::ffff:/i, '');
  if (bare === '::1') return true;
  const ipv4 = parseIpv4(bare);
  return ipv4 !== null && ipv4 >>> 24 === 127;
}
