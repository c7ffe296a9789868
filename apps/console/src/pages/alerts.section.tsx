import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { alertEndpointQuery, alertsQuery, setAlertEndpoint } from '../api/alerts.api';
import { ErrorAlert } from '../components/error-alert';
import { QueryState } from '../components/query-state';

/** What an alert says in one line: the budget and share it reached, or the balance or quota left. */
function summaryOf(type: string, data: Record<string, unknown>): string {
  const text = (key: string) => String(data[key] ?? '');
  if (type === 'budget.threshold_reached') {
    const whose = data.scope === 'key' ? `key ${text('key')}` : `project ${text('project')}`;
    return `${whose}: ${text('share')} % of ${text('amount')} (${text('period')}, ${text('mode')}), used ${text('used')}`;
  }
  if (type === 'balance.low') return `balance ${text('balance')} below ${text('threshold')}`;
  return `quota left ${text('left')} of ${text('limit')}, below ${text('share')} %`;
}

function EndpointForm({ current }: { current: { url: string; events: string[] } | null }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(current?.url ?? '');
  const [events, setEvents] = useState((current?.events ?? ['*']).join(','));
  const save = useMutation({
    mutationFn: () =>
      setAlertEndpoint({
        url: url.trim(),
        events: events
          .split(',')
          .map((e) => e.trim())
          .filter((e) => e !== ''),
      }),
    onSuccess: (saved) => queryClient.setQueryData(alertEndpointQuery.queryKey, { endpoint: saved }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Alert endpoint">
      <Group align="flex-end">
        <TextInput label="Endpoint URL" type="url" required miw={320} value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
        <TextInput label="Events" description="budget.*, balance.*, quota.* or *" value={events} onChange={(e) => setEvents(e.currentTarget.value)} />
        <Button type="submit" loading={save.isPending}>
          Save endpoint
        </Button>
      </Group>
      <ErrorAlert error={save.error} title="Could not save the endpoint" />
    </form>
  );
}

/** Account alerts (a budget share reached, a low balance, a low plan quota): where they go, and every one fired. */
export function AlertsSection({ canEdit }: { canEdit: boolean }) {
  const endpoint = useQuery(alertEndpointQuery);
  const alerts = useQuery(alertsQuery);
  return (
    <Stack>
      <Title order={2} size="h3">
        Account alerts
      </Title>
      <Text size="sm">
        Budget shares reached, a balance below its amount and a plan quota running low are sent once each, signed like every webhook, to this endpoint.
      </Text>
      <QueryState query={endpoint} isEmpty={() => false} empty={null}>
        {(data) => (
          <Stack gap="xs">
            <Text size="sm" data-testid="alert-endpoint">
              {data.endpoint ? `Sent to ${data.endpoint.url} (${data.endpoint.events.join(', ')})` : 'No endpoint: alerts are recorded here, not sent.'}
            </Text>
            {canEdit && <EndpointForm current={data.endpoint} />}
          </Stack>
        )}
      </QueryState>
      <QueryState query={alerts} isEmpty={(data) => data.data.length === 0} empty="No alert has fired yet.">
        {(data) => (
          <Table data-testid="alerts-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">When</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">What</Table.Th>
                <Table.Th scope="col">Delivery</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((alert) => (
                <Table.Tr key={alert.id} data-testid="alert-row">
                  <Table.Td>{new Date(alert.createdAt).toLocaleString()}</Table.Td>
                  <Table.Td>{alert.type}</Table.Td>
                  <Table.Td>{summaryOf(alert.type, alert.data)}</Table.Td>
                  <Table.Td>{alert.delivery ? `${alert.delivery.status} (${alert.delivery.attempts} attempts)` : 'recorded only'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}
