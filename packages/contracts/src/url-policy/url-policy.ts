// The one policy for URLs a client hands the gateway to pass on (image URLs, file URIs, media inputs,
// callbacks). The gateway never fetches them, but upstreams do, some inside the operator's network:
// only public HTTPS hosts pass, judged on what the WHATWG parser makes of the URL and refusing the
// notations other parsers read differently. Pure: no DNS, no I/O.
import { hostNameProblem } from './host-names';
import { ipv4Refusal, ipv6Refusal } from './address-ranges';
import { imageDataUrlProblem } from './data-url';
import { formatIpv4, isCanonicalIpv4, parseIpv4, parseIpv6 } from './ip-address';

export interface UrlPolicyOptions {
  /** The field also takes inline data of this kind: image fields take data:image/<type>;base64,<data>. */
  data?: 'image';
}

export interface UrlPolicySettings {
  /** Hosts the operator deliberately lets through (dev, test, internal upstreams): exact names or `*.suffix`. */
  allowHosts: readonly string[];
}

interface AllowList {
  exact: ReadonlySet<string>;
  suffixes: readonly string[];
}

let allowList: AllowList = { exact: new Set(), suffixes: [] };

/** A host as the policy compares it: WHATWG-normalised (lowercase, IPv4 dotted, IPv6 bracketed and compressed), no trailing dot. */
function normalisedHost(text: string): string | null {
  const bare = text.includes(':') && !text.startsWith('[') ? `[${text}]` : text;
  try {
    return new URL(`https://${bare}/`).hostname.replace(/\.+$/, '') || null;
  } catch {
    return null;
  }
}

/** An allowlist entry in the form the policy compares, or an error naming the entry. */
export function normaliseAllowHost(entry: string): string {
  const wildcard = entry.startsWith('*.');
  const host = /^[^/?#@\s\\]+$/.test(entry) ? normalisedHost(wildcard ? entry.slice(2) : entry) : null;
  if (!host) throw new Error(`'${entry}' is not a host name, an IP address or *.suffix`);
  return wildcard ? `*.${host}` : host;
}

/** Sets the operator allowlist; each app that checks URLs calls this once at start-up. */
export function configureUrlPolicy(settings: UrlPolicySettings): void {
  const entries = settings.allowHosts.map(normaliseAllowHost);
  allowList = {
    exact: new Set(entries.filter((entry) => !entry.startsWith('*.'))),
    suffixes: entries.filter((entry) => entry.startsWith('*.')).map((entry) => entry.slice(1)),
  };
}

function isAllowed(host: string): boolean {
  return allowList.exact.has(host) || allowList.suffixes.some((suffix) => host.endsWith(suffix));
}

const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const LOCAL_PATH = /^(file:|\/|\.{1,2}\/|~|[A-Za-z]:[\\/])/i;
const LOOKS_LIKE_BASE64 = /^[A-Za-z0-9+/]{16,}={0,2}$/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Why a URL that is not https://… is refused, in the words that help the client most. */
function schemeProblem(url: string, options: UrlPolicyOptions): string {
  const alternative = options.data === 'image' ? ' or a data URL of the form data:image/<type>;base64,<data>' : '';
  if (/^http:/i.test(url)) return 'plain http:// URLs are not accepted; use a public HTTPS URL';
  if (LOCAL_PATH.test(url)) return `local file paths are not fetchable by the upstream; use a public HTTPS URL${alternative}`;
  if (options.data === 'image' && LOOKS_LIKE_BASE64.test(url)) return 'bare base64 is not accepted; prefix it as data:image/<type>;base64,<data>';
  if (/^https:/i.test(url)) return 'expected the form https://<host>/<path>';
  const scheme = SCHEME.exec(url);
  if (scheme) return `${scheme[1]!.toLowerCase()}: URLs are not accepted; use a public HTTPS URL${alternative}`;
  return `expected a public HTTPS URL${alternative}`;
}

/** The host as written in the authority (port dropped), for telling a canonical IP literal from another notation. */
function writtenHost(authority: string): string {
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:[^:]*$/, '');
  return host.toLowerCase().replace(/\.+$/, '');
}

function ipOrNameProblem(host: string, written: string): string | null {
  if (host.startsWith('[')) {
    const words = parseIpv6(host);
    return words ? ipv6Refusal(words) : `the host ${host} is not a valid IPv6 address`;
  }
  const ipv4 = parseIpv4(host);
  if (ipv4 === null) return hostNameProblem(host);
  const refusal = ipv4Refusal(ipv4);
  if (refusal) return refusal;
  // Octal, hex and short forms mean different addresses to different parsers (0127.0.0.1 is 87.0.0.1 here, 127.0.0.1 elsewhere).
  if (!isCanonicalIpv4(written)) return `write the IP address in plain dotted decimal (${formatIpv4(ipv4)}), not as '${written}'`;
  return null;
}

/**
 * Why `url` must not be passed to an upstream, or null when it may: a public HTTPS URL (or, where the
 * field allows it, a data URL). The reason reads after the field's name, e.g. "points at a loopback
 * address (127.0.0.1)".
 */
export function urlProblem(url: string, options: UrlPolicyOptions = {}): string | null {
  if (/^data:/i.test(url)) {
    return options.data === 'image' ? imageDataUrlProblem(url) : 'data URLs are not accepted here; use a public HTTPS URL';
  }
  if (!/^https:\/\//i.test(url)) return schemeProblem(url, options);
  if (SPACE_OR_CONTROL.test(url)) return 'the URL contains spaces or control characters';
  if (url.includes('\\')) return 'the URL contains a backslash';
  const authority = url.slice('https://'.length).split(/[/?#]/, 1)[0]!;
  // WHATWG reads https:///a.png as host a.png; others read no host at all.
  if (authority === '') return 'an HTTPS URL needs a host';
  if (authority.includes('@')) return 'the URL carries credentials (user@host); use a public URL that needs none';
  if (authority.includes('%')) return authority.startsWith('[') ? 'an IPv6 zone id (%…) is not accepted' : 'the host is percent-encoded; write it plainly';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  const host = parsed.hostname.replace(/\.+$/, '');
  if (!host) return 'an HTTPS URL needs a host';
  if (isAllowed(host)) return null;
  return ipOrNameProblem(host, writtenHost(authority));
}
