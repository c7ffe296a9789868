import { displayMicros, displayMoney } from '@gateway/contracts/console';
import { Card, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { balanceQuery } from '../api/tenant.api';
import { overviewQuery } from '../api/tenant-data.api';
import { ErrorAlert } from '../components/error-alert';
import { QueryState } from '../components/query-state';
import { UsageChart } from '../components/usage-chart';

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm">{label}</Text>
      <Text fw={700} size="xl" data-testid={`stat-${label.toLowerCase().replace(/\W+/g, '-')}`}>
        {value}
      </Text>
      {hint && <Text size="xs">{hint}</Text>}
    </Card>
  );
}

/** The landing page: balance or the plan's quota window, spend this month, and requests and tasks for each of the last 30 days. */
export function OverviewPage() {
  const overview = useQuery(overviewQuery);
  const balance = useQuery(balanceQuery);
  return (
    <Stack>
      <Title order={1}>Overview</Title>
      <ErrorAlert error={balance.error} title="Could not load the balance" />
      <QueryState query={overview} isEmpty={() => false} empty="">
        {(data) => {
          const window = data.plan[0];
          const quota = window && (window.unit === 'micros' ? (v: string) => displayMicros(v) : (v: string) => `${v} requests`);
          return (
            <>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <Stat label="Spend this month" value={displayMoney(data.monthSpend)} hint={`since ${new Date(data.monthStart).toLocaleDateString()} (UTC)`} />
                <Stat label="Requests this month" value={data.monthRequests.toLocaleString()} />
                {window && quota ? (
                  <Card withBorder padding="md">
                    <Text size="sm">Plan quota</Text>
                    <Text fw={700} size="xl" data-testid="stat-quota-left">
                      {quota(window.left)} left
                    </Text>
                    <Progress
                      mt="xs"
                      value={Number(window.limit) > 0 ? Math.min(100, (Number(window.used) / Number(window.limit)) * 100) : 0}
                      aria-label={`Used ${quota(window.used)} of ${quota(window.limit)}`}
                    />
                    <Text size="xs">
                      used {quota(window.used)} of {quota(window.limit)}, until {new Date(window.windowEnd).toLocaleString()}
                    </Text>
                  </Card>
                ) : (
                  <Stat
                    label="Balance"
                    value={balance.data ? displayMoney(balance.data.balance) : balance.isPending ? '…' : '—'}
                    hint="prepaid, pay as you go"
                  />
                )}
              </SimpleGrid>
              <Title order={2} size="h3">
                Requests and tasks per day
              </Title>
              {data.days.every((d) => d.requests === 0 && d.tasks === 0) ? (
                <Text>No requests in the last {data.days.length} days. Make one with a key and it shows here within seconds.</Text>
              ) : (
                <UsageChart
                  rows={data.days.map((d) => ({ ...d, day: d.day.slice(5) }))}
                  x="day"
                  label={`Requests and tasks per day over the last ${data.days.length} days`}
                  bars={[
                    { key: 'requests', name: 'Requests', color: 'var(--mantine-color-blue-6)' },
                    { key: 'tasks', name: 'Tasks', color: 'var(--mantine-color-orange-6)' },
                  ]}
                />
              )}
            </>
          );
        }}
      </QueryState>
    </Stack>
  );
}
