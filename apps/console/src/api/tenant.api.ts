import {
  ConsoleBalance,
  ConsoleKeyList,
  ConsoleKeySecret,
  ConsoleKeyView,
  ConsoleModelList,
  ConsoleWebhookSecret,
  roleAllows,
  type ConsoleGrant,
  type ConsoleMe,
} from '@gateway/contracts/console';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from './http';

export type KeyRow = z.infer<typeof ConsoleKeyView>;
export type KeySecret = z.infer<typeof ConsoleKeySecret>;
export type WebhookSecret = z.infer<typeof ConsoleWebhookSecret>;

export const keysQuery = queryOptions({ queryKey: ['keys'], queryFn: () => api('GET', '/keys', ConsoleKeyList) });
export const modelsQuery = queryOptions({ queryKey: ['models'], queryFn: () => api('GET', '/models', ConsoleModelList), staleTime: 60_000 });
export const balanceQuery = queryOptions({ queryKey: ['balance'], queryFn: () => api('GET', '/balance', ConsoleBalance) });

export const createKey = (name: string) => api('POST', '/keys', ConsoleKeySecret, { name });
export const regenerateKey = (id: string) => api('POST', `/keys/${encodeURIComponent(id)}/regenerate`, ConsoleKeySecret);
export const revokeKey = (id: string) => api('POST', `/keys/${encodeURIComponent(id)}/revoke`, ConsoleKeyView);
export const rotateWebhookSecret = () => api('POST', '/webhooks/secret/rotate', ConsoleWebhookSecret);

/** Whether the signed-in person's role holds a grant: the page hides what the server would refuse. */
export function may(me: ConsoleMe | null | undefined, grant: ConsoleGrant): boolean {
  return me?.role != null && roleAllows(me.role, grant);
}
