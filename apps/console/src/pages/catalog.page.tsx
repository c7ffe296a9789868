import type { ChannelHealth } from '@gateway/contracts/console';
import { Badge, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { catalogQuery } from '../api/operator-pages.api';
import { PAGE_SIZE, Pager } from '../components/paged';
import { QueryState } from '../components/query-state';
import { StatusDot } from '../components/status-dot';

/** Green under 5 % errors, yellow under 25 %, red above; the words say it too, not the colour alone. */
function HealthBadge({ health }: { health: ChannelHealth }) {
  if (health.errorRate === null) return <StatusDot color="gray" label="no calls yet" />;
  if (health.errorRate < 0.05) return <StatusDot color="green" label="healthy" />;
  if (health.errorRate < 0.25) return <StatusDot color="yellow" label="degraded" />;
  return <StatusDot color="red" label="failing" />;
}

const ms = (value: number | null) => (value === null ? '–' : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`);
const percent = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(value < 0.1 ? 1 : 0)} %`);

/** Models and their channels in routing order, with each channel's error rate, latency and failovers from the services' own counters. */
export function CatalogPage() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const catalog = useQuery(catalogQuery({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, search: debounced || undefined }));
  return (
    <Stack>
      <Title order={1}>Catalog</Title>
      <Text>
        Every model with its channels in the order requests try them. Health counts each channel's upstream calls since its services started: errors (non-2xx or
        no answer), latency to response headers, rate limits and spent quotas (whatever status the vendor used), and failovers away from it. Refreshed every 15
        s.
      </Text>
      <TextInput
        label="Search"
        placeholder="model id or name"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <QueryState
        query={catalog}
        isEmpty={(result) => result.total === 0}
        empty={debounced ? `No model matches “${debounced}”.` : 'The catalog is empty: apply a config with models (gatewayctl config apply).'}
      >
        {(result) => (
          <>
            <Text size="sm" data-testid="catalog-processes">
              Counters from {result.processes.length} process(es): {result.processes.map((p) => `${p.app}#${p.pid}`).join(', ') || 'none answered'}.
            </Text>
            <Table striped captionSide="top" data-testid="catalog-table">
              <Table.Caption>Models and channels with live health</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Model</Table.Th>
                  <Table.Th scope="col">Channel</Table.Th>
                  <Table.Th scope="col">Health</Table.Th>
                  <Table.Th scope="col">Calls</Table.Th>
                  <Table.Th scope="col">Error rate</Table.Th>
                  <Table.Th scope="col">Latency mean / p95</Table.Th>
                  <Table.Th scope="col">Throttled</Table.Th>
                  <Table.Th scope="col">Failovers</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.map((model) => (
                  <Fragment key={model.id}>
                    {model.channels.length === 0 && (
                      <Table.Tr data-testid="catalog-model">
                        <Table.Th scope="row">
                          <ModelCell id={model.id} displayName={model.displayName} capability={model.capability} isPublic={model.isPublic} />
                        </Table.Th>
                        <Table.Td colSpan={7}>No channel: requests for this model fail until one is configured.</Table.Td>
                      </Table.Tr>
                    )}
                    {model.channels.map((channel, index) => (
                      <Table.Tr key={channel.id} data-testid="catalog-channel">
                        {index === 0 && (
                          <Table.Th scope="row" rowSpan={model.channels.length} data-testid="catalog-model">
                            <ModelCell id={model.id} displayName={model.displayName} capability={model.capability} isPublic={model.isPublic} />
                          </Table.Th>
                        )}
                        <Table.Td>
                          <Text size="sm" fw={600}>
                            {channel.providerId} · {channel.protocol}
                          </Text>
                          <Text size="sm">
                            {channel.host} · <code>{channel.upstreamModel}</code> · priority {channel.priority}, weight {channel.weight}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <HealthBadge health={channel.health} />
                        </Table.Td>
                        <Table.Td data-testid="channel-calls">{channel.health.calls}</Table.Td>
                        <Table.Td>{percent(channel.health.errorRate)}</Table.Td>
                        <Table.Td>
                          {ms(channel.health.latencyMeanMs)} / {ms(channel.health.latencyP95Ms)}
                        </Table.Td>
                        <Table.Td data-testid="channel-throttled">{channel.health.throttled}</Table.Td>
                        <Table.Td>{channel.health.failovers}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Fragment>
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

function ModelCell({ id, displayName, capability, isPublic }: { id: string; displayName: string; capability: string; isPublic: boolean }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {displayName}
      </Text>
      <code>{id}</code>
      <Group gap={4}>
        <Badge variant="outline" size="sm">
          {capability}
        </Badge>
        {!isPublic && (
          <Badge variant="outline" size="sm" color="grape">
            private
          </Badge>
        )}
      </Group>
    </Stack>
  );
}
