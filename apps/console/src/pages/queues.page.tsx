import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queuesQuery } from '../api/operator-pages.api';
import { PAGE_SIZE, Pager } from '../components/paged';
import { QueryState } from '../components/query-state';

function age(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** Every service's BullMQ queues with their jobs by state, read from Redis; refreshed every 10 s. */
export function QueuesPage() {
  const [page, setPage] = useState(1);
  const queues = useQuery(queuesQuery({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }));
  return (
    <Stack>
      <Title order={1}>Queues</Title>
      <Text>
        Jobs of every service's queues by state (media and music tasks, batches, webhook deliveries). Waiting jobs that grow while none are active mean the
        service's workers are down. Refreshed every 10 s.
      </Text>
      <QueryState
        query={queues}
        isEmpty={(result) => result.total === 0}
        empty="No queue holds any job yet: queues appear once a service queues its first job."
      >
        {(result) => (
          <>
            <Group justify="space-between">
              <Text size="sm">Read {new Date(queues.dataUpdatedAt).toLocaleTimeString()}.</Text>
              <Button size="xs" variant="default" onClick={() => void queues.refetch()} loading={queues.isFetching}>
                Refresh
              </Button>
            </Group>
            <Table striped captionSide="top">
              <Table.Caption>Queues by service</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Service</Table.Th>
                  <Table.Th scope="col">Queue</Table.Th>
                  <Table.Th scope="col">Waiting</Table.Th>
                  <Table.Th scope="col">Active</Table.Th>
                  <Table.Th scope="col">Delayed</Table.Th>
                  <Table.Th scope="col">Failed</Table.Th>
                  <Table.Th scope="col">Oldest waiting</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.map((queue) => (
                  <Table.Tr key={`${queue.role}/${queue.queue}`} data-testid="queue-row">
                    <Table.Td>{queue.role}</Table.Td>
                    <Table.Td>
                      <code>{queue.queue}</code>
                    </Table.Td>
                    <Table.Td>{queue.waiting}</Table.Td>
                    <Table.Td>{queue.active}</Table.Td>
                    <Table.Td>{queue.delayed}</Table.Td>
                    <Table.Td>{queue.failed}</Table.Td>
                    <Table.Td>{age(queue.oldestWaitingSeconds)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager total={result.total} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
