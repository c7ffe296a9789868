import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One cookie per side: both listeners may share a host name (ports do not separate cookies). */
export const SESSION_COOKIE = { tenant: 'gw_console', operator: 'gw_operator' } as const;
export type ConsoleSideName = keyof typeof SESSION_COOKIE;

/** The single sign-on's state while the person is at the provider: sent back on the provider's redirect, hence Lax. */
export const OIDC_STATE_COOKIE = 'gw_console_oidc';
export const OIDC_PATH = '/console/api/oidc';

/** Whether the browser reached us over TLS: directly, or through a trusted proxy's X-Forwarded-Proto (Fastify's trustProxy). */
export function overTls(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  return parse(header)[name];
}

function append(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}

/** The session cookie: httpOnly, SameSite=Strict, Secure behind TLS, only for /console, gone when the session ends. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, side: ConsoleSideName, token: string, expiresAt: string): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  append(reply, serialize(SESSION_COOKIE[side], token, { httpOnly: true, sameSite: 'strict', secure: overTls(request), path: '/console', maxAge }));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, side: ConsoleSideName): void {
  append(reply, serialize(SESSION_COOKIE[side], '', { httpOnly: true, sameSite: 'strict', secure: overTls(request), path: '/console', maxAge: 0 }));
}

export function setOidcStateCookie(request: FastifyRequest, reply: FastifyReply, state: string): void {
  append(reply, serialize(OIDC_STATE_COOKIE, state, { httpOnly: true, sameSite: 'lax', secure: overTls(request), path: OIDC_PATH, maxAge: 600 }));
}

export function clearOidcStateCookie(request: FastifyRequest, reply: FastifyReply): void {
  append(reply, serialize(OIDC_STATE_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: overTls(request), path: OIDC_PATH, maxAge: 0 }));
}
