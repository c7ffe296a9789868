import '@mantine/core/styles.css';
import './app/console.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/http';
import { queryClient, startSession } from './api/session';
import { router } from './app/router';
import { cssVariablesResolver, theme } from './app/theme';

// A session that ends while a page is open (signed out elsewhere, revoked) sends the person to sign in again.
queryClient.getQueryCache().subscribe((event) => {
  const error = event.type === 'updated' ? event.query.state.error : null;
  if (error instanceof ApiError && error.status === 401 && event.query.queryKey[0] !== 'session') {
    startSession(null);
    void router.navigate({ to: '/sign-in' });
  }
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
