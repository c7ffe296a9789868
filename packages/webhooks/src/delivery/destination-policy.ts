// Where a webhook may be sent. At creation the URL passes the gateway's URL policy; at delivery the
// name is resolved again and every address it resolves to is judged, at connect time, so a name
// that was public when the task was created cannot be rebound to an inside address later.
import { isLoopbackAddress, resolvedAddressProblem, urlProblem } from '@gateway/contracts';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

export interface DestinationSettings {
  /** Development and tests: plain HTTP and loopback addresses pass (private ranges still do not). */
  allowPrivate: boolean;
  /**
   * The ports of the gateway's own listeners (public, admin, metrics): on a local address (loopback,
   * unspecified, this machine's interfaces and names) they are refused whatever `allowPrivate` says.
   */
  ownPorts?: ReadonlySet<number>;
}

export class DestinationRefused extends Error {
  readonly code = 'EWEBHOOKREFUSED';
}

function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host);
}

/** `::ffff:7f00:1` (how the URL parser writes a mapped IPv4 address) as `127.0.0.1`; other text unchanged. */
function unmapped(address: string): string {
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address.replace(/^::ffff:/i, '');
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether connecting to this address reaches this machine: loopback, unspecified (0.0.0.0/8, ::) or one of its interfaces. */
export function isLocalAddress(address: string): boolean {
  const bare = unmapped(bareHost(address).replace(/%.*$/, ''));
  if (isLoopbackAddress(bare) || bare === '::' || /^0\.\d+\.\d+\.\d+$/.test(bare)) return true;
  return Object.values(networkInterfaces()).some((list) => list?.some((entry) => entry.address.toLowerCase().replace(/%.*$/, '') === bare));
}

/** A host (name or literal) that stands for this machine. */
function isLocalHost(host: string): boolean {
  const bare = bareHost(host);
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === hostname().toLowerCase() || isLocalAddress(bare);
}

/** The port a URL connects to (its scheme's default when it names none). */
function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

function isOwnPort(port: number, settings: DestinationSettings): boolean {
  return settings.ownPorts?.has(port) === true;
}

/** Why the URL names one of the gateway's own listeners, or null. */
function ownListenerProblem(url: URL, settings: DestinationSettings): string | null {
  const port = portOf(url);
  if (!isOwnPort(port, settings) || !isLocalHost(url.hostname)) return null;
  return `points at one of the gateway's own listeners (port ${port} on this machine)`;
}

/** Why a callback URL is refused when a task is created, or null when it is accepted. */
export function callbackUrlProblem(url: string, settings: DestinationSettings): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return settings.allowPrivate ? 'not a valid URL' : urlProblem(url);
  }
  const own = ownListenerProblem(parsed, settings);
  if (own) return own;
  if (!settings.allowPrivate) return urlProblem(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol} URLs are not accepted; use an HTTPS URL`;
  if (parsed.username || parsed.password) return 'the URL carries credentials (user@host); use a URL that needs none';
  if (isLoopbackHost(bareHost(parsed.hostname))) return null;
  return urlProblem(parsed.protocol === 'http:' ? `https:${url.slice('http:'.length)}` : url);
}

/** Why the gateway must not connect to this resolved address (on `port`, when known), or null. */
export function addressProblem(address: string, settings: DestinationSettings, port?: number): string | null {
  if (port !== undefined && isOwnPort(port, settings) && isLocalAddress(address)) {
    return `points at one of the gateway's own listeners (port ${port} on this machine)`;
  }
  if (settings.allowPrivate && isLoopbackAddress(address)) return null;
  return resolvedAddressProblem(address);
}

/** The host of a URL when it is an IP literal (checked before sending: no lookup happens for it). */
export function literalAddressOf(url: URL): string | null {
  const host = bareHost(url.hostname);
  return isIP(host) ? host : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the HTTP client's connections: resolves as the system does, then refuses the
 * connection when any address is one the policy forbids (for `port`, when the connection's is known).
 */
export function guardedLookup(settings: DestinationSettings, resolve: typeof dnsLookup = dnsLookup, port?: number) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : typeof options.family === 'number' ? options.family : 0;
    resolve(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = list.map((entry) => addressProblem(entry.address, settings, port)).find((problem) => problem !== null);
      if (refused || list.length === 0) {
        return callback(new DestinationRefused(`the callback host ${hostname} ${refused ?? 'resolves to no address'}`), []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
