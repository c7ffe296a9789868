import { ConsoleBalance, ConsoleTenant, ConsoleTenantPage, type ConsoleTenantsRequest } from '@gateway/contracts/console';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from './http';

export const tenantsQuery = (request: ConsoleTenantsRequest) =>
  queryOptions({
    queryKey: ['tenants', request],
    queryFn: () => {
      const query = new URLSearchParams(
        Object.entries(request).flatMap(([name, value]) => (value === undefined || value === '' ? [] : [[name, String(value)]])),
      );
      return api('GET', `/tenants?${query.toString()}`, ConsoleTenantPage);
    },
    placeholderData: keepPreviousData,
  });

export interface NewTenant {
  slug: string;
  name?: string;
  billing: 'payg' | 'plan' | 'custom';
  plan?: string;
}

export const createTenant = (tenant: NewTenant) => api('POST', '/tenants', ConsoleTenant, tenant);
export const topUp = (slug: string, amount: string) => api('POST', `/tenants/${encodeURIComponent(slug)}/topup`, ConsoleBalance, { amount });
