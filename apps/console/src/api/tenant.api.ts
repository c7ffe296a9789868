import {
  CONSOLE_ROUTES,
  ConsoleKeySecret,
  ConsoleKeyView,
  ConsoleWebhookSecret,
  roleAllows,
  type ConsoleGrant,
  type ConsoleMe,
} from '@gateway/contracts/console';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from './http';

export type KeyRow = z.infer<typeof ConsoleKeyView>;
export type KeySecret = z.infer<typeof ConsoleKeySecret>;
export type WebhookSecret = z.infer<typeof ConsoleWebhookSecret>;

export const keysQuery = queryOptions({ queryKey: ['keys'], queryFn: () => call(CONSOLE_ROUTES.keys) });
export const modelsQuery = queryOptions({ queryKey: ['models'], queryFn: () => call(CONSOLE_ROUTES.models), staleTime: 60_000 });
export const balanceQuery = queryOptions({ queryKey: ['balance'], queryFn: () => call(CONSOLE_ROUTES.balance) });

export const createKey = (name: string) => call(CONSOLE_ROUTES.createKey, { name });
export const regenerateKey = (id: string) => call(CONSOLE_ROUTES.regenerateKey, { id });
export const revokeKey = (id: string) => call(CONSOLE_ROUTES.revokeKey, { id });
export const rotateWebhookSecret = () => call(CONSOLE_ROUTES.rotateWebhookSecret);

/** Whether the signed-in person's role holds a grant: the page hides what the server would refuse. */
export function may(me: ConsoleMe | null | undefined, grant: ConsoleGrant): boolean {
  return me?.role != null && roleAllows(me.role, grant);
}
