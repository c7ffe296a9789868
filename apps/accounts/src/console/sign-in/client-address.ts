import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a sign-in is counted against: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber's whole network), an IPv4-mapped IPv6 address as its IPv4 form; anything else as `unknown`.
 */
export function signInAddressOf(ip: string | null): string {
  if (ip === null) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return 'unknown';
  const [head, tail = ''] = ip.toLowerCase().split('::') as [string, string?];
  const front = head === '' ? [] : head.split(':');
  const back = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::') ? [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back] : front;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
