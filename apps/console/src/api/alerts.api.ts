import { CONSOLE_ROUTES, type ConsoleAlertEndpointRequest } from '@gateway/contracts/console';
import { queryOptions } from '@tanstack/react-query';
import { call } from './http';

/** The tenant's account alerts (budgets, balance, quota) and the endpoint they are sent to. */
export const alertsQuery = queryOptions({ queryKey: ['alerts'], queryFn: () => call(CONSOLE_ROUTES.alerts, { limit: 50 }) });
export const alertEndpointQuery = queryOptions({ queryKey: ['alert-endpoint'], queryFn: () => call(CONSOLE_ROUTES.alertEndpoint) });

export const setAlertEndpoint = (body: ConsoleAlertEndpointRequest) => call(CONSOLE_ROUTES.setAlertEndpoint, body);
