import { GatewayError } from '@gateway/contracts';

export interface OriginFacts {
  method: string;
  /** The browser's Origin header, if sent. */
  origin: string | undefined;
  /** The browser's Sec-Fetch-Site header, if sent. */
  fetchSite: string | undefined;
  /** The origin this request reached: scheme and Host (or a trusted proxy's forwarded ones). */
  ownOrigin: string;
  allowedOrigins: readonly string[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Refuses a console call made from another site: a foreign Origin on any call, a cross-site fetch, and
 * a state-changing call that names no Origin at all (every browser sends one on those). A cookie taken
 * elsewhere and replayed from another origin is refused here before it is even looked up.
 */
export function foreignOriginRefusal(facts: OriginFacts): GatewayError | null {
  if (facts.fetchSite === 'cross-site') {
    return new GatewayError('permission_denied', 'The console API answers only its own pages: this call came from another site.', 'origin');
  }
  if (facts.origin === undefined) {
    if (!isStateChanging(facts.method)) return null;
    return new GatewayError('permission_denied', 'A state-changing console call must come from the console page (no Origin header was sent).', 'origin');
  }
  const origin = facts.origin.toLowerCase();
  if (origin === facts.ownOrigin.toLowerCase() || facts.allowedOrigins.includes(origin)) return null;
  return new GatewayError('permission_denied', `The console API refuses calls from ${facts.origin.slice(0, 100)}: only its own origin may call it.`, 'origin');
}
