import {
  ConsoleDelivery,
  ConsoleDeliveryPage,
  ConsoleKeyLimits,
  ConsoleOverview,
  ConsoleTaskPage,
  ConsoleUsageRecordDetail,
  ConsoleUsageRecordPage,
  ConsoleUsageSummary,
  type ConsoleDeliveriesQuery,
  type ConsoleTasksQuery,
  type ConsoleUsageQuery,
  type ConsoleUsageRecordsQuery,
} from '@gateway/contracts/console';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from './http';

/** The tenant console's data pages: overview, usage, tasks, webhook deliveries, key limits. Every list pages on the server. */

export type UsageSummary = z.infer<typeof ConsoleUsageSummary>;
export type UsageRecord = z.infer<typeof ConsoleUsageRecordPage>['data'][number];
export type TaskRow = z.infer<typeof ConsoleTaskPage>['data'][number];
export type DeliveryRow = z.infer<typeof ConsoleDelivery>;
export type KeyLimits = z.infer<typeof ConsoleKeyLimits>;
export type RateLimitsInput = NonNullable<KeyLimits['own']>;

/** `?a=1&b=x`, leaving out what is unset. */
export function searchOf(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const overviewQuery = queryOptions({ queryKey: ['overview'], queryFn: () => api('GET', '/overview', ConsoleOverview) });

export const usageSummaryQuery = (query: ConsoleUsageQuery) =>
  queryOptions({
    queryKey: ['usage-summary', query],
    queryFn: () => api('GET', `/usage/summary${searchOf({ ...query })}`, ConsoleUsageSummary),
    placeholderData: keepPreviousData,
  });

export const usageRecordsQuery = (query: ConsoleUsageRecordsQuery) =>
  queryOptions({
    queryKey: ['usage-records', query],
    queryFn: () => api('GET', `/usage/records${searchOf({ ...query })}`, ConsoleUsageRecordPage),
    placeholderData: keepPreviousData,
  });

export const usageRecordQuery = (requestId: string) =>
  queryOptions({
    queryKey: ['usage-record', requestId],
    queryFn: () => api('GET', `/usage/records/${encodeURIComponent(requestId)}`, ConsoleUsageRecordDetail),
  });

/** The address of a CSV export of the same filters; the browser downloads it with the session cookie. */
export const usageExportUrl = (params: Record<string, string | undefined>) => `/console/api/usage/export.csv${searchOf(params)}`;

export const tasksQuery = (query: ConsoleTasksQuery) =>
  queryOptions({
    queryKey: ['tasks', query],
    queryFn: () => api('GET', `/tasks${searchOf({ ...query })}`, ConsoleTaskPage),
    placeholderData: keepPreviousData,
  });

export const deliveriesQuery = (query: ConsoleDeliveriesQuery) =>
  queryOptions({
    queryKey: ['deliveries', query],
    queryFn: () => api('GET', `/webhooks/deliveries${searchOf({ ...query })}`, ConsoleDeliveryPage),
    placeholderData: keepPreviousData,
  });

export const redeliver = (id: string) => api('POST', `/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`, ConsoleDelivery);

export const keyLimitsQuery = (id: string) =>
  queryOptions({ queryKey: ['key-limits', id], queryFn: () => api('GET', `/keys/${encodeURIComponent(id)}/limits`, ConsoleKeyLimits) });

export const setKeyLimits = (id: string, limits: RateLimitsInput | null) => api('PUT', `/keys/${encodeURIComponent(id)}/limits`, ConsoleKeyLimits, { limits });
