import { Center, Loader, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

/** Loading, failed, empty or ready: every list page shows one of the four, never a blank area. */
export function QueryState<T>({
  query,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  }
  if (query.isError) return <ErrorAlert error={query.error} title="Could not load this page" />;
  if (isEmpty(query.data)) {
    return (
      <Stack align="center" py="xl" gap="xs">
        <Text>{empty}</Text>
      </Stack>
    );
  }
  return <>{children(query.data)}</>;
}
