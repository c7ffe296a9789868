import { Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deliveriesQuery, redeliver, type DeliveryRow } from '../api/tenant-data.api';
import { CursorPager, useCursorPages } from '../components/cursor-pager';
import { ErrorAlert } from '../components/error-alert';
import { QueryState } from '../components/query-state';

type Status = 'pending' | 'delivered' | 'dead';

function Attempts({ delivery }: { delivery: DeliveryRow }) {
  if (delivery.history.length === 0) return <Text size="sm">not attempted yet</Text>;
  return (
    <Table withRowBorders={false} verticalSpacing={2} data-testid="delivery-attempts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">#</Table.Th>
          <Table.Th scope="col">Outcome</Table.Th>
          <Table.Th scope="col">Response</Table.Th>
          <Table.Th scope="col">Latency</Table.Th>
          <Table.Th scope="col">At</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {delivery.history.map((a) => (
          <Table.Tr key={a.attempt}>
            <Table.Td>{a.attempt}</Table.Td>
            <Table.Td title={a.error ?? undefined}>{a.outcome}</Table.Td>
            <Table.Td>{a.responseStatus ?? '—'}</Table.Td>
            <Table.Td>{a.latencyMs} ms</Table.Td>
            <Table.Td>{new Date(a.startedAt).toLocaleTimeString()}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Every webhook the gateway sent the tenant, each with every attempt; owners and developers redeliver one that ended. */
export function WebhookDeliveries({ canRedeliver }: { canRedeliver: boolean }) {
  const [status, setStatus] = useState<Status | null>(null);
  const pages = useCursorPages(String(status));
  const queryClient = useQueryClient();
  const deliveries = useQuery(deliveriesQuery({ status: status ?? undefined, cursor: pages.cursor }));
  const again = useMutation({ mutationFn: redeliver, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deliveries'] }) });
  return (
    <Stack>
      <Title order={2} size="h3">
        Deliveries
      </Title>
      <Select
        label="Delivery status"
        placeholder="every status"
        clearable
        maw={240}
        value={status}
        onChange={(value) => setStatus(value as Status | null)}
        data={['pending', 'delivered', 'dead']}
      />
      <ErrorAlert error={again.error} title="Could not redeliver" />
      <QueryState query={deliveries} isEmpty={(p) => p.data.length === 0} empty="No webhook deliveries yet: tasks created with a callback URL send them.">
        {(p) => (
          <>
            <Table striped captionSide="top" verticalSpacing="sm">
              <Table.Caption>Webhook deliveries, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Event</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Attempts</Table.Th>
                  {canRedeliver && <Table.Th scope="col">Actions</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.data.map((d) => (
                  <Table.Tr key={d.id} data-testid="delivery-row">
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {d.eventType}
                      </Text>
                      <Text size="xs">
                        task <code>{d.taskId}</code>
                      </Text>
                      <Text size="xs">
                        <code>{d.id}</code> to {d.url}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {d.status}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Attempts delivery={d} />
                    </Table.Td>
                    {canRedeliver && (
                      <Table.Td>
                        <Group>
                          <Button
                            size="xs"
                            variant="default"
                            disabled={d.status === 'pending'}
                            loading={again.isPending && again.variables === d.id}
                            onClick={() => again.mutate(d.id)}
                            aria-label={`Redeliver ${d.eventType} of task ${d.taskId}`}
                          >
                            Redeliver
                          </Button>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <CursorPager label="Deliveries" page={pages.page} nextCursor={p.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
