// Which IP addresses an upstream must never be sent to: everything that is not globally reachable
// (IANA's special-purpose registries) plus the cloud metadata endpoints. Addresses that embed an IPv4
// address (mapped, compatible, NAT64, 6to4) are judged by the address they embed.
import { formatIpv4, formatIpv6 } from './ip-address';

interface Ipv4Range {
  base: string;
  bits: number;
  what: string;
}

const METADATA = 'a cloud metadata address';

/** First match wins: the metadata hosts sit inside wider ranges and are named as what they are. */
const IPV4_RANGES: readonly Ipv4Range[] = [
  { base: '169.254.169.254', bits: 32, what: METADATA },
  { base: '169.254.170.2', bits: 32, what: METADATA },
  { base: '100.100.100.200', bits: 32, what: METADATA },
  { base: '192.0.0.192', bits: 32, what: METADATA },
  { base: '0.0.0.0', bits: 8, what: 'an unspecified ("this network") address' },
  { base: '10.0.0.0', bits: 8, what: 'a private address' },
  { base: '100.64.0.0', bits: 10, what: 'a shared (CGNAT) address' },
  { base: '127.0.0.0', bits: 8, what: 'a loopback address' },
  { base: '169.254.0.0', bits: 16, what: 'a link-local address' },
  { base: '172.16.0.0', bits: 12, what: 'a private address' },
  { base: '192.0.0.0', bits: 24, what: 'a protocol-assignment address' },
  { base: '192.0.2.0', bits: 24, what: 'a documentation address' },
  { base: '192.88.99.0', bits: 24, what: 'a 6to4 relay address' },
  { base: '192.168.0.0', bits: 16, what: 'a private address' },
  { base: '198.18.0.0', bits: 15, what: 'a benchmarking address' },
  { base: '198.51.100.0', bits: 24, what: 'a documentation address' },
  { base: '203.0.113.0', bits: 24, what: 'a documentation address' },
  { base: '224.0.0.0', bits: 4, what: 'a multicast address' },
  { base: '255.255.255.255', bits: 32, what: 'the broadcast address' },
  { base: '240.0.0.0', bits: 4, what: 'a reserved address' },
];

function ipv4Number(dotted: string): number {
  return dotted.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

const IPV4_TABLE = IPV4_RANGES.map((range) => ({ ...range, start: ipv4Number(range.base), size: 2 ** (32 - range.bits) }));

function ipv4Kind(address: number): string | null {
  const range = IPV4_TABLE.find((entry) => address >= entry.start && address < entry.start + entry.size);
  return range ? range.what : null;
}

/** Why an upstream must not be sent to this IPv4 address, or null for a public one. */
export function ipv4Refusal(address: number): string | null {
  const what = ipv4Kind(address);
  return what ? `points at ${what} (${formatIpv4(address)})` : null;
}

interface Ipv6Range {
  /** The leading words of the prefix. */
  words: readonly number[];
  bits: number;
  what: string;
}

const IPV6_RANGES: readonly Ipv6Range[] = [
  { words: [0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], bits: 128, what: METADATA },
  { words: [0, 0, 0, 0, 0, 0, 0, 0], bits: 128, what: 'the unspecified address' },
  { words: [0, 0, 0, 0, 0, 0, 0, 1], bits: 128, what: 'a loopback address' },
  { words: [0x0064, 0xff9b, 0x0001], bits: 48, what: 'a local-use NAT64 address' },
  { words: [0x0100, 0, 0, 0], bits: 64, what: 'a discard-only address' },
  { words: [0x2001, 0x0db8], bits: 32, what: 'a documentation address' },
  { words: [0x2001, 0], bits: 32, what: 'a Teredo tunnel address' },
  { words: [0x2001, 0], bits: 23, what: 'a protocol-assignment address' },
  { words: [0x3fff], bits: 20, what: 'a documentation address' },
  { words: [0xfc00], bits: 7, what: 'a unique-local address' },
  { words: [0xfe80], bits: 10, what: 'a link-local address' },
  { words: [0xfec0], bits: 10, what: 'a site-local address' },
  { words: [0xff00], bits: 8, what: 'a multicast address' },
];

function inPrefix(words: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((words[i]! & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address stands for, where it embeds one. */
function embeddedIpv4(words: readonly number[]): number | null {
  const fromWords = (hi: number, lo: number) => hi * 0x10000 + lo;
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible; :: and ::1 are named above)
  if (zeros(0, 5) && words[5] === 0xffff) return fromWords(words[6]!, words[7]!);
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return fromWords(words[6]!, words[7]!);
  if (zeros(0, 6)) return fromWords(words[6]!, words[7]!);
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return fromWords(words[6]!, words[7]!);
  // 2002:AABB:CCDD::/48 (6to4)
  if (words[0] === 0x2002) return fromWords(words[1]!, words[2]!);
  return null;
}

/** Why an upstream must not be sent to this IPv6 address (naming the IPv4 address it embeds, if any), or null for a public one. */
export function ipv6Refusal(words: readonly number[]): string | null {
  const shown = formatIpv6(words);
  const range = IPV6_RANGES.find((entry) => inPrefix(words, entry.words, entry.bits));
  if (range) return `points at ${range.what} (${shown})`;
  const embedded = embeddedIpv4(words);
  if (embedded !== null) {
    const what = ipv4Kind(embedded);
    return what ? `points at ${what} (${formatIpv4(embedded)}, embedded in ${shown})` : null;
  }
  // Outside 2000::/3 nothing is allocated for global unicast.
  return (words[0]! & 0xe000) === 0x2000 ? null : `points at a reserved address (${shown})`;
}
