import { type ConsolePrices, displayMoney } from '@gateway/contracts/console';
import { Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { modelsQuery } from '../api/tenant.api';
import { pageOf, Pager } from '../components/paged';
import { QueryState } from '../components/query-state';

const PRICE_LABELS: [keyof ConsolePrices, string][] = [
  ['inputPerMTok', 'per 1M input tokens'],
  ['cachedInputPerMTok', 'per 1M cached input tokens'],
  ['cacheWritePerMTok', 'per 1M cache-write tokens'],
  ['outputPerMTok', 'per 1M output tokens'],
  ['perImage', 'per image'],
  ['perSecond', 'per second'],
  ['perTask', 'per task'],
];

function Prices({ prices }: { prices: ConsolePrices }) {
  const lines = PRICE_LABELS.flatMap(([field, label]) => (prices[field] ? [`${displayMoney(prices[field]!)} ${label}`] : []));
  if (lines.length === 0) return <Text size="sm">Free</Text>;
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text size="sm" key={line}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/** The models this tenant may use, with the prices it pays (its subscription's own where it sets them). */
export function ModelsPage() {
  const models = useQuery(modelsQuery);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  return (
    <Stack>
      <Title order={1}>Models</Title>
      <Text>Every model your keys may call, and what a call costs your tenant.</Text>
      <TextInput
        label="Filter"
        placeholder="model id, name or kind"
        value={filter}
        onChange={(e) => {
          setFilter(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <QueryState query={models} isEmpty={(list) => list.data.length === 0} empty="No models are available to this tenant yet: ask your operator.">
        {(list) => {
          const needle = filter.trim().toLowerCase();
          const rows = list.data.filter((m) => !needle || `${m.id} ${m.displayName} ${m.capability}`.toLowerCase().includes(needle));
          if (rows.length === 0) return <Text>No model matches “{filter}”.</Text>;
          return (
            <>
              <Table striped captionSide="top">
                <Table.Caption>Models and prices</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Model</Table.Th>
                    <Table.Th scope="col">Kind</Table.Th>
                    <Table.Th scope="col">Price</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {pageOf(rows, page).map((model) => (
                    <Table.Tr key={model.id}>
                      <Table.Td>
                        <Text fw={600} size="sm">
                          {model.displayName}
                        </Text>
                        <code>{model.id}</code>
                      </Table.Td>
                      <Table.Td>{model.capability}</Table.Td>
                      <Table.Td>
                        <Prices prices={model.prices} />
                        {model.overridden && (
                          <Text size="sm" fw={600} mt={4}>
                            your own price
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Pager total={rows.length} page={page} onChange={setPage} />
            </>
          );
        }}
      </QueryState>
    </Stack>
  );
}
