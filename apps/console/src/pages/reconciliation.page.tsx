import { type ConsoleReconcileStatus, displayMicros } from '@gateway/contracts/console';
import { Alert, Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { reconciliationQuery, runReconciliation } from '../api/operator-pages.api';
import { ErrorAlert } from '../components/error-alert';
import { PAGE_SIZE, Pager } from '../components/paged';
import { QueryState } from '../components/query-state';
import { StatusDot } from '../components/status-dot';

type LastRun = NonNullable<ConsoleReconcileStatus['last']>;

function Summary({ last }: { last: LastRun }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} data-testid="reconcile-summary">
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          Result
        </Text>
        <StatusDot color={last.ok ? 'green' : 'red'} label={last.ok ? 'every tenant holds' : `${last.failingTotal} tenant(s) do not hold`} />
      </Stack>
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          Run at
        </Text>
        <Text fw={600}>{new Date(last.at).toLocaleString()}</Text>
      </Stack>
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          Tenants checked
        </Text>
        <Text fw={600}>{last.checked}</Text>
      </Stack>
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          Took
        </Text>
        <Text fw={600}>{last.tookMs} ms</Text>
      </Stack>
    </SimpleGrid>
  );
}

function Failing({ last, page, onPage }: { last: LastRun; page: number; onPage: (page: number) => void }) {
  if (last.failingTotal === 0) return <Text>Every tenant's ledger, stored balance, live wallet and usage records agree.</Text>;
  return (
    <>
      <Table striped captionSide="top">
        <Table.Caption>Tenants whose books do not hold</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Tenant</Table.Th>
            <Table.Th scope="col">Ledger</Table.Th>
            <Table.Th scope="col">Stored</Table.Th>
            <Table.Th scope="col">Wallet</Table.Th>
            <Table.Th scope="col">Differences</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {last.failing.map((tenant) => (
            <Table.Tr key={tenant.tenant} data-testid="reconcile-failing">
              <Table.Td>{tenant.tenant}</Table.Td>
              <Table.Td>{displayMicros(tenant.ledgerMicros)}</Table.Td>
              <Table.Td>{displayMicros(tenant.storedMicros)}</Table.Td>
              <Table.Td>{tenant.walletMicros === null ? '–' : displayMicros(tenant.walletMicros)}</Table.Td>
              <Table.Td>
                <Stack gap={4}>
                  {tenant.findings.map((finding, index) => (
                    <Text size="sm" key={index}>
                      <strong>{finding.check}</strong>: {finding.message}
                      {finding.differenceMicros ? ` (difference ${displayMicros(finding.differenceMicros)})` : ''}
                      {finding.ids.length > 0 ? ` · ${finding.ids.slice(0, 5).join(', ')}${finding.ids.length > 5 ? ', …' : ''}` : ''}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Pager total={last.failingTotal} page={page} onChange={onPage} />
    </>
  );
}

/** The last reconciliation of every tenant (ledger, stored balance, live wallet, usage), with the failing tenants; run a new one. */
export function ReconciliationPage() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const request = { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  const status = useQuery(reconciliationQuery(request));
  const run = useMutation({
    mutationFn: () => runReconciliation({ offset: 0, limit: PAGE_SIZE }),
    onSuccess: (result) => {
      setPage(1);
      queryClient.setQueryData(reconciliationQuery({ offset: 0, limit: PAGE_SIZE }).queryKey, result);
      void queryClient.invalidateQueries({ queryKey: ['reconciliation'] });
    },
  });
  return (
    <Stack>
      <Title order={1}>Reconciliation</Title>
      <Text>
        Checks every tenant's books: the ledger sums to the stored balance and to the live wallet, every charge has its usage record at its cost, no hold is
        overdue, quotas add up. The same check as <code>gatewayctl reconcile --all</code>; the last run of either is shown.
      </Text>
      <Group>
        <Button onClick={() => run.mutate()} loading={run.isPending}>
          Run reconciliation now
        </Button>
      </Group>
      {run.isSuccess && (
        <Alert variant="default" role="status">
          Reconciliation finished: {run.data.last?.ok ? 'every tenant holds.' : `${run.data.last?.failingTotal ?? 0} tenant(s) do not hold.`}
        </Alert>
      )}
      <ErrorAlert error={run.error} title="Could not run the reconciliation" />
      <QueryState query={status} isEmpty={(result) => result.last === null} empty="No reconciliation has run yet: run one now.">
        {(result) => (
          <Stack>
            <Summary last={result.last!} />
            <Failing last={result.last!} page={page} onPage={setPage} />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
