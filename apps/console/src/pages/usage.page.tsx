import { displayMoney, USAGE_KINDS, type UsageKind } from '@gateway/contracts/console';
import { Anchor, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usageExportUrl, usageRecordsQuery, usageSummaryQuery } from '../api/tenant-data.api';
import { CursorPager, useCursorPages } from '../components/cursor-pager';
import { QueryState } from '../components/query-state';
import { UsageChart } from '../components/usage-chart';
import { UsageRecordDialog } from './usage-record.dialog';

type GroupBy = 'day' | 'model' | 'key' | 'project' | 'kind';
type Metric = 'requests' | 'tokens' | 'cost';

/** A date field's day as the start of that UTC day; `until` is the day after the chosen one (exclusive). */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  return new Date(Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000).toISOString();
}

const ms = (value: number | null) => (value === null ? '—' : `${value} ms`);

/** Usage by day, model, key or kind (the server aggregates), the records behind it page by page, and CSV exports of both. */
export function UsagePage() {
  const [by, setBy] = useState<GroupBy>('day');
  const [metric, setMetric] = useState<Metric>('requests');
  const [sinceDay, setSinceDay] = useState(() => new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
  const [untilDay, setUntilDay] = useState('');
  const [kind, setKind] = useState<UsageKind | null>(null);
  const [model, setModel] = useState('');
  // Typing a model id asks the server once the typing pauses, not at every key.
  const [modelFilter] = useDebouncedValue(model.trim(), 300);
  const [opened, setOpened] = useState<string | null>(null);
  const since = dayStart(sinceDay);
  const until = dayStart(untilDay, 1);
  const summary = useQuery(usageSummaryQuery({ by, since, until }));
  const filters = { since, until, kind: kind ?? undefined, model: modelFilter || undefined };
  const pages = useCursorPages(JSON.stringify(filters));
  const records = useQuery(usageRecordsQuery({ ...filters, cursor: pages.cursor }));

  return (
    <Stack>
      <Title order={1}>Usage</Title>
      <Text>What your keys used and what it cost, as the gateway metered it. Days are UTC.</Text>
      <Group align="flex-end" wrap="wrap">
        <TextInput type="date" label="Since (UTC day)" value={sinceDay} onChange={(e) => setSinceDay(e.currentTarget.value)} />
        <TextInput type="date" label="Until (UTC day, included)" value={untilDay} onChange={(e) => setUntilDay(e.currentTarget.value)} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="group-by-label">
            Group by
          </Text>
          <SegmentedControl
            aria-labelledby="group-by-label"
            value={by}
            onChange={(value) => setBy(value as GroupBy)}
            data={[
              { value: 'day', label: 'Day' },
              { value: 'model', label: 'Model' },
              { value: 'key', label: 'Key' },
              { value: 'project', label: 'Project' },
              { value: 'kind', label: 'Kind' },
            ]}
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="metric-label">
            Chart
          </Text>
          <SegmentedControl
            aria-labelledby="metric-label"
            value={metric}
            onChange={(value) => setMetric(value as Metric)}
            data={[
              { value: 'requests', label: 'Requests' },
              { value: 'tokens', label: 'Tokens' },
              { value: 'cost', label: 'Cost' },
            ]}
          />
        </Stack>
        <Anchor href={usageExportUrl({ of: 'summary', by, since, until })} download>
          Export summary (CSV)
        </Anchor>
      </Group>

      <QueryState query={summary} isEmpty={(s) => s.rows.length === 0} empty="No usage in these days. Widen the dates, or make a request with a key.">
        {(s) => (
          <>
            <UsageChart
              label={`${metric} by ${s.by}`}
              x="group"
              rows={s.rows.map((r) => ({
                group: r.group,
                requests: r.requests,
                prompt: r.promptTokens,
                completion: r.completionTokens,
                cost: Number(r.costMicros) / 1_000_000,
              }))}
              bars={
                metric === 'requests'
                  ? [{ key: 'requests', name: 'Requests', color: 'var(--mantine-color-blue-6)' }]
                  : metric === 'tokens'
                    ? [
                        { key: 'prompt', name: 'Prompt tokens', color: 'var(--mantine-color-teal-6)' },
                        { key: 'completion', name: 'Completion tokens', color: 'var(--mantine-color-grape-6)' },
                      ]
                    : [{ key: 'cost', name: 'Cost', color: 'var(--mantine-color-orange-6)' }]
              }
            />
            <Table striped captionSide="top" data-testid="usage-summary">
              <Table.Caption>
                Usage by {s.by}: total cost {displayMoney(s.totalCost)}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{s.by}</Table.Th>
                  <Table.Th scope="col">Requests</Table.Th>
                  <Table.Th scope="col">Prompt tokens</Table.Th>
                  <Table.Th scope="col">Completion tokens</Table.Th>
                  <Table.Th scope="col">Latency p50</Table.Th>
                  <Table.Th scope="col">Latency p99</Table.Th>
                  <Table.Th scope="col">Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {s.rows.map((r) => (
                  <Table.Tr key={r.group}>
                    <Table.Td>
                      <code>{r.group}</code>
                    </Table.Td>
                    <Table.Td>{r.requests.toLocaleString()}</Table.Td>
                    <Table.Td>{r.promptTokens.toLocaleString()}</Table.Td>
                    <Table.Td>{r.completionTokens.toLocaleString()}</Table.Td>
                    <Table.Td>{ms(r.latencyP50Ms)}</Table.Td>
                    <Table.Td>{ms(r.latencyP99Ms)}</Table.Td>
                    <Table.Td>{displayMoney(r.cost)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
      </QueryState>

      <Title order={2} size="h3">
        Requests and tasks
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Select label="Kind" placeholder="every kind" clearable value={kind} onChange={(value) => setKind(value as UsageKind | null)} data={[...USAGE_KINDS]} />
        <TextInput label="Model" placeholder="model id" value={model} onChange={(e) => setModel(e.currentTarget.value)} />
        <Anchor href={usageExportUrl({ of: 'records', ...filters })} download>
          Export records (CSV)
        </Anchor>
      </Group>
      <QueryState query={records} isEmpty={(p) => p.data.length === 0} empty="No records match these filters.">
        {(p) => (
          <>
            <Table striped highlightOnHover captionSide="top" data-testid="usage-records">
              <Table.Caption>Records, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Time</Table.Th>
                  <Table.Th scope="col">Kind</Table.Th>
                  <Table.Th scope="col">Model</Table.Th>
                  <Table.Th scope="col">Tokens in / out</Table.Th>
                  <Table.Th scope="col">Latency</Table.Th>
                  <Table.Th scope="col">Result</Table.Th>
                  <Table.Th scope="col">Cost</Table.Th>
                  <Table.Th scope="col">Request</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.data.map((r) => (
                  <Table.Tr key={r.requestId} data-testid="usage-record">
                    <Table.Td>{new Date(r.at).toLocaleString()}</Table.Td>
                    <Table.Td>{r.kind}</Table.Td>
                    <Table.Td>
                      <code>{r.modelId}</code>
                    </Table.Td>
                    <Table.Td>
                      {r.promptTokens} / {r.completionTokens}
                    </Table.Td>
                    <Table.Td>{r.latencyMs} ms</Table.Td>
                    <Table.Td>{r.result ?? r.outcome}</Table.Td>
                    <Table.Td>{displayMoney(r.cost)}</Table.Td>
                    <Table.Td>
                      <Anchor component="button" type="button" onClick={() => setOpened(r.requestId)} aria-label={`Details of request ${r.requestId}`}>
                        Details
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <CursorPager label="Records" page={pages.page} nextCursor={p.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
          </>
        )}
      </QueryState>
      <UsageRecordDialog requestId={opened} onClose={() => setOpened(null)} />
    </Stack>
  );
}
