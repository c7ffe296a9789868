import { isIP } from 'node:net';
import type { EdgeEnv } from '../config/edge-env';

/** Names a loopback listener is reached by; `::1` appears bracketed in a Host header. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** An admin API on a non-loopback address without a token would hand tenants and money to the network. */
export function assertAdminExposure(env: Pick<EdgeEnv, 'ADMIN_HOST' | 'ADMIN_TOKEN'>): void {
  if (env.ADMIN_TOKEN !== undefined || isLoopbackHost(env.ADMIN_HOST)) return;
  throw new Error(`ADMIN_HOST=${env.ADMIN_HOST} is not a loopback address and ADMIN_TOKEN is unset: set ADMIN_TOKEN, or bind ADMIN_HOST to 127.0.0.1.`);
}

/**
 * The host names the admin listener answers to: loopback ones, its own address (a wildcard one too, as
 * the CLI addresses it so; a rebinding page cannot make a browser send it), and the configured ones.
 */
export function adminHostNames(adminHost: string, allowedHosts: readonly string[]): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, ...allowedHosts.map((name) => name.toLowerCase())]);
  const own = adminHost.toLowerCase();
  names.add(isIP(own) === 6 ? `[${own}]` : own);
  return names;
}

/** The host name of a Host header value (`name:port`, `[v6]:port`), without its port. */
export function hostNameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}
