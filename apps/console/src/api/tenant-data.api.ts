import {
  CONSOLE_ROUTES,
  ConsoleDelivery,
  ConsoleKeyLimits,
  ConsoleTaskPage,
  ConsoleUsageRecordPage,
  ConsoleUsageSummary,
  type ConsoleDeliveriesQuery,
  type ConsoleTasksQuery,
  type ConsoleUsageQuery,
  type ConsoleUsageRecordsQuery,
} from '@gateway/contracts/console';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { call, searchOf } from './http';

/** The tenant console's data pages: overview, usage, tasks, webhook deliveries, key limits. Every list pages on the server. */

export type UsageSummary = z.infer<typeof ConsoleUsageSummary>;
export type UsageRecord = z.infer<typeof ConsoleUsageRecordPage>['data'][number];
export type TaskRow = z.infer<typeof ConsoleTaskPage>['data'][number];
export type DeliveryRow = z.infer<typeof ConsoleDelivery>;
export type KeyLimits = z.infer<typeof ConsoleKeyLimits>;
export type RateLimitsInput = NonNullable<KeyLimits['own']>;

export const overviewQuery = queryOptions({ queryKey: ['overview'], queryFn: () => call(CONSOLE_ROUTES.overview) });

export const usageSummaryQuery = (query: ConsoleUsageQuery) =>
  queryOptions({
    queryKey: ['usage-summary', query],
    queryFn: () => call(CONSOLE_ROUTES.usageSummary, query),
    placeholderData: keepPreviousData,
  });

export const usageRecordsQuery = (query: ConsoleUsageRecordsQuery) =>
  queryOptions({
    queryKey: ['usage-records', query],
    queryFn: () => call(CONSOLE_ROUTES.usageRecords, query),
    placeholderData: keepPreviousData,
  });

export const usageRecordQuery = (requestId: string) =>
  queryOptions({
    queryKey: ['usage-record', requestId],
    queryFn: () => call(CONSOLE_ROUTES.usageRecord, { requestId }),
  });

/** The address of a CSV export of the same filters; the browser downloads it with the session cookie. */
export const usageExportUrl = (params: Record<string, string | undefined>) => `${CONSOLE_ROUTES.usageExport.path}${searchOf(params)}`;

export const tasksQuery = (query: ConsoleTasksQuery) =>
  queryOptions({
    queryKey: ['tasks', query],
    queryFn: () => call(CONSOLE_ROUTES.tasks, query),
    placeholderData: keepPreviousData,
  });

export const deliveriesQuery = (query: ConsoleDeliveriesQuery) =>
  queryOptions({
    queryKey: ['deliveries', query],
    queryFn: () => call(CONSOLE_ROUTES.deliveries, query),
    placeholderData: keepPreviousData,
  });

export const redeliver = (id: string) => call(CONSOLE_ROUTES.redeliver, { id });

export const keyLimitsQuery = (id: string) => queryOptions({ queryKey: ['key-limits', id], queryFn: () => call(CONSOLE_ROUTES.keyLimits, { id }) });

export const setKeyLimits = (id: string, limits: RateLimitsInput | null) => call(CONSOLE_ROUTES.setKeyLimits, { id, limits });
