// IP literals as numbers: IPv4 in every notation the classic resolvers accept (inet_aton, WHATWG URL),
// IPv6 as eight 16-bit words. Parsing only; what an address may be used for is address-ranges.ts.

const HEX = /^0x[0-9a-f]*$/i;
const OCTAL = /^0[0-7]*$/;
const DECIMAL = /^[1-9][0-9]*$/;

function ipv4Part(part: string): number | null {
  if (HEX.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (OCTAL.test(part)) return parseInt(part, 8);
  if (DECIMAL.test(part)) return Number(part);
  return null;
}

/**
 * An IPv4 address written in any inet_aton form — one to four parts, each decimal, octal (leading 0)
 * or hex (0x), the last part filling the remaining bytes (`127.1`, `2130706433`, `0x7f.0.0.1`) — as
 * an unsigned 32-bit number, or null when the text is not one.
 */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = ipv4Part(part);
    if (value === null || !Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((value) => value > 255) || last >= 256 ** (4 - values.length)) return null;
  return values.reduce((sum, value, i) => sum + value * 256 ** (3 - i), 0) + last;
}

const CANONICAL_IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Plain dotted decimal with no leading zeros: the one notation every parser reads the same way. */
export function isCanonicalIpv4(text: string): boolean {
  return CANONICAL_IPV4.test(text);
}

export function formatIpv4(address: number): string {
  return [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255].join('.');
}

function hexWords(text: string): number[] | null {
  if (text === '') return [];
  const words: number[] = [];
  for (const group of text.split(':')) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    words.push(parseInt(group, 16));
  }
  return words;
}

/**
 * An IPv6 address (brackets, a zone id and an embedded dotted IPv4 tail allowed) as eight words, or
 * null when the text is not one.
 */
export function parseIpv6(text: string): number[] | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  const lastColon = body.lastIndexOf(':');
  const v4 = body.slice(lastColon + 1);
  if (lastColon >= 0 && v4.includes('.')) {
    // The dotted tail is the last two words written another way.
    if (!isCanonicalIpv4(v4)) return null;
    const value = parseIpv4(v4)!;
    body = `${body.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = hexWords(halves[0]!);
  const rest = halves.length === 2 ? hexWords(halves[1]!) : [];
  if (!head || !rest) return null;
  const given = head.length + rest.length;
  if (halves.length === 1) return given === 8 ? head : null;
  if (given > 7) return null;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest];
}

/** RFC 5952 text: lowercase, the longest run of two or more zero words as `::`. */
export function formatIpv6(words: readonly number[]): string {
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((word) => word.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}
