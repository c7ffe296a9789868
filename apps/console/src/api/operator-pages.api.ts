import {
  CONSOLE_ROUTES,
  type ConsoleCatalogRequest,
  type ConsoleDeadLettersRequest,
  type ConsoleQueuesRequest,
  type ConsoleReconcileRequest,
} from '@gateway/contracts/console';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './http';

export const tenantDetailQuery = (slug: string) =>
  queryOptions({ queryKey: ['tenant-detail', slug], queryFn: () => call(CONSOLE_ROUTES.tenantDetail, { slug }) });

export const renewSubscription = (slug: string, expires: string) => call(CONSOLE_ROUTES.setSubscription, { slug, expires });

/** The catalog is live: its channels' counters are read again every 15 s while the page is open. */
export const catalogQuery = (request: ConsoleCatalogRequest) =>
  queryOptions({
    queryKey: ['catalog', request],
    queryFn: () => call(CONSOLE_ROUTES.catalog, request),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });

export const deadLettersQuery = (request: ConsoleDeadLettersRequest) =>
  queryOptions({
    queryKey: ['dead-letters', request],
    queryFn: () => call(CONSOLE_ROUTES.deadLetters, request),
    placeholderData: keepPreviousData,
  });

export const deadLetterQuery = (id: string) => queryOptions({ queryKey: ['dead-letter', id], queryFn: () => call(CONSOLE_ROUTES.deadLetter, { id }) });

export const replayDeadLetters = (ids: string[]) => call(CONSOLE_ROUTES.replayDeadLetters, { ids });

export const queuesQuery = (request: ConsoleQueuesRequest) =>
  queryOptions({
    queryKey: ['queues', request],
    queryFn: () => call(CONSOLE_ROUTES.queues, request),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

export const reconciliationQuery = (request: ConsoleReconcileRequest) =>
  queryOptions({
    queryKey: ['reconciliation', request],
    queryFn: () => call(CONSOLE_ROUTES.reconciliation, request),
    placeholderData: keepPreviousData,
  });

export const runReconciliation = (request: ConsoleReconcileRequest) => call(CONSOLE_ROUTES.runReconciliation, request);
