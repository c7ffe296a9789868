import { CONSOLE_ROUTES, type ConsoleTenantsRequest } from '@gateway/contracts/console';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './http';

export const tenantsQuery = (request: ConsoleTenantsRequest) =>
  queryOptions({
    queryKey: ['tenants', request],
    queryFn: () => call(CONSOLE_ROUTES.tenants, request),
    placeholderData: keepPreviousData,
  });

export interface NewTenant {
  slug: string;
  name?: string;
  billing: 'payg' | 'plan' | 'custom';
  plan?: string;
}

export const createTenant = (tenant: NewTenant) => call(CONSOLE_ROUTES.createTenant, tenant);
export const topUp = (slug: string, amount: string) => call(CONSOLE_ROUTES.topUp, { slug, amount });
