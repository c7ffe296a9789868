// Where a webhook may be sent. At creation the URL passes the gateway's URL policy; at delivery the
// name is resolved again and every address it resolves to is judged, at connect time, so a name
// that was public when the task was created cannot be rebound to an inside address later.
import { isLoopbackAddress, resolvedAddressProblem, urlProblem } from '@gateway/contracts';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export interface DestinationSettings {
  /** Development and tests: plain HTTP and loopback addresses pass (private ranges still do not). */
  allowPrivate: boolean;
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

/** Why a callback URL is refused when a task is created, or null when it is accepted. */
export function callbackUrlProblem(url: string, settings: DestinationSettings): string | null {
  if (!settings.allowPrivate) return urlProblem(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol} URLs are not accepted; use an HTTPS URL`;
  if (parsed.username || parsed.password) return 'the URL carries credentials (user@host); use a URL that needs none';
  if (isLoopbackHost(bareHost(parsed.hostname))) return null;
  return urlProblem(parsed.protocol === 'http:' ? `https:${url.slice('http:'.length)}` : url);
}

/** Why the gateway must not connect to this resolved address, or null. */
export function addressProblem(address: string, settings: DestinationSettings): string | null {
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
 * connection when any address is one the policy forbids.
 */
export function guardedLookup(settings: DestinationSettings, resolve: typeof dnsLookup = dnsLookup) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : typeof options.family === 'number' ? options.family : 0;
    resolve(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = list.map((entry) => addressProblem(entry.address, settings)).find((problem) => problem !== null);
      if (refused || list.length === 0) {
        return callback(new DestinationRefused(`the callback host ${hostname} ${refused ?? 'resolves to no address'}`), []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
