import { CONSOLE_ROUTES, ConsoleSide, type ConsoleMe } from '@gateway/contracts/console';
import { QueryClient, queryOptions } from '@tanstack/react-query';
import { ApiError, call, setCsrfToken } from './http';

/** Which console this page is: the edge marks it in the page (public listener: tenant, admin listener: operator). */
export const SIDE: ConsoleSide = ConsoleSide.catch('tenant').parse(document.querySelector('meta[name="console-side"]')?.getAttribute('content'));

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2, staleTime: 10_000 },
  },
});

/** The signed-in person, or null: a 401 is an answer here, not an error. */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<ConsoleMe | null> => {
    try {
      const me = await call(SIDE === 'tenant' ? CONSOLE_ROUTES.session : CONSOLE_ROUTES.operatorSession);
      setCsrfToken(me.csrfToken);
      return me;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setCsrfToken(null);
        return null;
      }
      throw error;
    }
  },
  staleTime: 60_000,
});

/** After signing in or out: the new session (or none) replaces everything cached for the old one. */
export function startSession(me: ConsoleMe | null): void {
  setCsrfToken(me?.csrfToken ?? null);
  queryClient.clear();
  queryClient.setQueryData(sessionQuery.queryKey, me);
}
