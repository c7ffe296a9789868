import {
  ConsoleCatalogHealthPage,
  ConsoleDeadLetter,
  ConsoleDeadLetterPage,
  ConsoleQueuePage,
  ConsoleReconcileStatus,
  ConsoleSubscription,
  ConsoleTenantDetail,
  ConsoleReplayReply,
  type ConsoleCatalogRequest,
  type ConsoleDeadLettersRequest,
  type ConsoleQueuesRequest,
  type ConsoleReconcileRequest,
} from '@gateway/contracts/console';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from './http';

/** `?name=value&...` of the fields set. */
function queryString(request: object): string {
  const query = new URLSearchParams(
    Object.entries(request).flatMap(([name, value]) => (value === undefined || value === '' || value === null ? [] : [[name, String(value)]])),
  );
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const tenantDetailQuery = (slug: string) =>
  queryOptions({ queryKey: ['tenant-detail', slug], queryFn: () => api('GET', `/tenants/${encodeURIComponent(slug)}`, ConsoleTenantDetail) });

export const renewSubscription = (slug: string, expires: string) =>
  api('PUT', `/tenants/${encodeURIComponent(slug)}/subscription`, ConsoleSubscription, { expires });

/** The catalog is live: its channels' counters are read again every 15 s while the page is open. */
export const catalogQuery = (request: ConsoleCatalogRequest) =>
  queryOptions({
    queryKey: ['catalog', request],
    queryFn: () => api('GET', `/catalog${queryString(request)}`, ConsoleCatalogHealthPage),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });

export const deadLettersQuery = (request: ConsoleDeadLettersRequest) =>
  queryOptions({
    queryKey: ['dead-letters', request],
    queryFn: () => api('GET', `/dead-letters${queryString(request)}`, ConsoleDeadLetterPage),
    placeholderData: keepPreviousData,
  });

export const deadLetterQuery = (id: string) =>
  queryOptions({ queryKey: ['dead-letter', id], queryFn: () => api('GET', `/dead-letters/${encodeURIComponent(id)}`, ConsoleDeadLetter) });

export const replayDeadLetters = (ids: string[]) => api('POST', '/dead-letters/replay', ConsoleReplayReply, { ids });

export const queuesQuery = (request: ConsoleQueuesRequest) =>
  queryOptions({
    queryKey: ['queues', request],
    queryFn: () => api('GET', `/queues${queryString(request)}`, ConsoleQueuePage),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

export const reconciliationQuery = (request: ConsoleReconcileRequest) =>
  queryOptions({
    queryKey: ['reconciliation', request],
    queryFn: () => api('GET', `/reconciliation${queryString(request)}`, ConsoleReconcileStatus),
    placeholderData: keepPreviousData,
  });

export const runReconciliation = (request: ConsoleReconcileRequest) => api('POST', `/reconciliation${queryString(request)}`, ConsoleReconcileStatus);
