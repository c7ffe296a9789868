import { loadEnv, type NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';
import { ConsoleGuard } from './console-guard';
import { ConsoleRoutes } from './console-routes';
import { ConsoleSessionCache } from './console-session.cache';
import { ConsoleEdgeEnv } from './console-env';
import { registerConsoleStatic } from './console-static.routes';
import { registerOperatorConsole } from './operator.routes';
import { registerOperatorPages } from './operator-pages.routes';
import { registerTenantActivity } from './tenant-activity.routes';
import { registerTenantSignIn } from './tenant-sign-in.routes';
import { registerTenantSso } from './tenant-sso.routes';
import { registerTenantUsage } from './tenant-usage.routes';

/** The public listener's own address, for invite links when PUBLIC_BASE_URL is unset. */
export function listenerOrigin(fastify: FastifyInstance): string {
  const address = fastify.server.address();
  if (address === null || typeof address === 'string') return 'http://127.0.0.1:8080';
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

export interface MountedConsole {
  stop(): void;
}

/**
 * The console on both listeners: the tenant console on the public one, the operator console on the
 * admin one, each its static page at /console and its API at /console/api. One session cache serves
 * both (a session's kind must match the listener). Call before the listeners start.
 */
export function mountConsole(listeners: { public: FastifyInstance; admin: FastifyInstance }, bus: NatsBus, adminToken: string | undefined): MountedConsole {
  const env = loadEnv(ConsoleEdgeEnv);
  const sessions = new ConsoleSessionCache(bus, env.CONSOLE_SESSION_CACHE_SECONDS * 1000);

  const tenant = new ConsoleRoutes(listeners.public, new ConsoleGuard(sessions, 'tenant', env.CONSOLE_ALLOWED_ORIGINS), 'tenant');
  registerConsoleStatic(listeners.public, env.CONSOLE_DIST_DIR, 'tenant');
  registerTenantSignIn(tenant, bus, sessions);
  registerTenantSso(listeners.public, tenant.guard, bus, sessions);
  registerTenantUsage(tenant, bus);
  registerTenantActivity(tenant, bus, env.PUBLIC_BASE_URL);
  tenant.relayAll(bus);
  tenant.complete();
  tenant.unknownPaths();

  const operator = new ConsoleRoutes(listeners.admin, new ConsoleGuard(sessions, 'operator', env.CONSOLE_ALLOWED_ORIGINS), 'operator');
  registerConsoleStatic(listeners.admin, env.CONSOLE_DIST_DIR, 'operator');
  registerOperatorConsole(operator, bus, sessions, { adminToken, failuresPerMinute: env.CONSOLE_OPERATOR_FAILURES_PER_MINUTE });
  registerOperatorPages(operator, bus);
  operator.relayAll(bus);
  operator.complete();
  operator.unknownPaths();

  return { stop: () => sessions.stop() };
}
