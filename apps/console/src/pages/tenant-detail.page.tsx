import { type ConsoleTenantDetail, displayMicros, displayMoney } from '@gateway/contracts/console';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState, type FormEvent, type ReactNode } from 'react';
import { renewSubscription, tenantDetailQuery } from '../api/operator-pages.api';
import { ErrorAlert } from '../components/error-alert';
import { QueryState } from '../components/query-state';
import { TenantProjects } from './tenant-projects.section';

type SpendRow = ConsoleTenantDetail['byKind'][number];

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{children}</Text>
    </Stack>
  );
}

function SpendTable({ caption, groupLabel, rows, testId }: { caption: string; groupLabel: string; rows: SpendRow[]; testId: string }) {
  if (rows.length === 0) return <Text>No usage this month yet.</Text>;
  return (
    <Table striped captionSide="top" data-testid={testId}>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{groupLabel}</Table.Th>
          <Table.Th scope="col">Requests</Table.Th>
          <Table.Th scope="col">Input tokens</Table.Th>
          <Table.Th scope="col">Output tokens</Table.Th>
          <Table.Th scope="col">Cost</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.group} data-testid={`${testId}-row`}>
            <Table.Td>{row.group}</Table.Td>
            <Table.Td>{row.requests}</Table.Td>
            <Table.Td>{row.promptTokens}</Table.Td>
            <Table.Td>{row.completionTokens}</Table.Td>
            <Table.Td>{displayMoney(row.cost)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RenewForm({ slug, current }: { slug: string; current: string | null }) {
  const queryClient = useQueryClient();
  const [date, setDate] = useState('');
  const renew = useMutation({
    mutationFn: () => renewSubscription(slug, `${date}T00:00:00Z`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tenant-detail', slug] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    renew.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Set the subscription's end">
      <Stack gap="xs">
        <Group align="flex-end">
          <TextInput
            type="date"
            label="Subscription ends (UTC)"
            description={current ? `Now: ${new Date(current).toUTCString()}` : 'Now: no end'}
            required
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
          />
          <Button type="submit" loading={renew.isPending}>
            Set end
          </Button>
        </Group>
        {renew.isSuccess && (
          <Alert variant="default" role="status">
            The subscription now ends {renew.data.expires ? new Date(renew.data.expires).toUTCString() : 'never'}.
          </Alert>
        )}
        <ErrorAlert error={renew.error} title="Could not set the end" />
      </Stack>
    </form>
  );
}

function Detail({ detail }: { detail: ConsoleTenantDetail }) {
  const { tenant, balance, subscription } = detail;
  const spent = displayMicros(detail.byKind.reduce((total, row) => total + BigInt(row.costMicros), 0n));
  const month = new Date(detail.since).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <Fact label="Name">{tenant.name}</Fact>
        <Fact label="Billing">
          {tenant.billing}
          {tenant.plan ? ` (${tenant.plan})` : ''}
        </Fact>
        <Fact label="Balance">
          <span data-testid="detail-balance">{displayMoney(balance.balance)}</span>
        </Fact>
        <Fact label={`Spend in ${month}`}>
          <span data-testid="detail-spend">{spent}</span>
        </Fact>
      </SimpleGrid>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h3">
            Subscription
          </Title>
          {subscription ? (
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
              <Fact label="Kind">{subscription.kind}</Fact>
              <Fact label="Quota">
                {subscription.quotaMicros !== null
                  ? displayMicros(subscription.quotaMicros)
                  : subscription.quotaRequests !== null
                    ? `${subscription.quotaRequests} requests`
                    : 'none'}
                {subscription.periodSeconds ? ` per ${Math.round(subscription.periodSeconds / 86400)} day(s)` : ''}
              </Fact>
              <Fact label="Started">{new Date(subscription.startsAt).toUTCString()}</Fact>
              <Fact label="Ends">{subscription.expiresAt ? new Date(subscription.expiresAt).toUTCString() : 'never'}</Fact>
              <Fact label="Own prices">{Object.keys(subscription.priceOverrides).length} model(s)</Fact>
            </SimpleGrid>
          ) : (
            <Text>Pay as you go: no subscription. Calls draw on the balance.</Text>
          )}
          {detail.plan?.map((window) => (
            <Text key={`${window.unit}-${window.windowStart}`} size="sm">
              This window ({new Date(window.windowStart).toUTCString()} to {new Date(window.windowEnd).toUTCString()}): used{' '}
              {window.unit === 'micros' ? displayMicros(window.used) : window.used} of {window.unit === 'micros' ? displayMicros(window.limit) : window.limit}.
            </Text>
          ))}
          {tenant.billing !== 'payg' && <RenewForm slug={tenant.slug} current={subscription?.expiresAt ?? tenant.expires} />}
        </Stack>
      </Card>
      <Title order={2} size="h3">
        Spend this month
      </Title>
      <SpendTable caption={`By kind, since ${new Date(detail.since).toUTCString()}`} groupLabel="Kind" rows={detail.byKind} testId="spend-kind" />
      <SpendTable caption="By model" groupLabel="Model" rows={detail.byModel} testId="spend-model" />
      <TenantProjects slug={tenant.slug} />
    </Stack>
  );
}

/** One tenant: its balance, its subscription (and when it ends) and what it spent this month by kind and model. */
export function TenantDetailPage() {
  const { slug } = useParams({ strict: false }) as { slug: string };
  const detail = useQuery(tenantDetailQuery(slug));
  return (
    <Stack>
      <Anchor component={Link} to="/tenants" size="sm">
        ← All tenants
      </Anchor>
      <Title order={1}>Tenant {slug}</Title>
      <QueryState query={detail} isEmpty={() => false} empty={null}>
        {(data) => <Detail detail={data} />}
      </QueryState>
    </Stack>
  );
}
