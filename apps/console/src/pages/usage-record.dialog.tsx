import { displayMoney } from '@gateway/contracts/console';
import { Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { usageRecordQuery } from '../api/tenant-data.api';
import { QueryState } from '../components/query-state';

type Row = {
  requestId: string;
  kind?: string;
  modelId: string;
  at: string;
  promptTokens: number;
  completionTokens: number;
  result?: string;
  outcome: string;
  cost: string;
};

function Rows({ rows, caption }: { rows: Row[]; caption: string }) {
  return (
    <Table captionSide="top">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Request</Table.Th>
          <Table.Th scope="col">Kind</Table.Th>
          <Table.Th scope="col">Time</Table.Th>
          <Table.Th scope="col">Tokens in / out</Table.Th>
          <Table.Th scope="col">Result</Table.Th>
          <Table.Th scope="col">Charge</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.requestId}>
            <Table.Td>
              <code>{r.requestId}</code>
            </Table.Td>
            <Table.Td>{r.kind}</Table.Td>
            <Table.Td>{new Date(r.at).toLocaleString()}</Table.Td>
            <Table.Td>
              {r.promptTokens} / {r.completionTokens}
            </Table.Td>
            <Table.Td>{r.result ?? r.outcome}</Table.Td>
            <Table.Td>{displayMoney(r.cost)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One record's detail and charge, and the other records of the task, batch or run it belongs to. */
export function UsageRecordDialog({ requestId, onClose }: { requestId: string | null; onClose: () => void }) {
  const detail = useQuery({ ...usageRecordQuery(requestId ?? ''), enabled: requestId !== null });
  return (
    <Modal opened={requestId !== null} onClose={onClose} title="Usage record" size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
      <QueryState query={detail} isEmpty={() => false} empty="">
        {({ record, related }) => (
          <Stack>
            <Text>
              <code>{record.requestId}</code> on <code>{record.modelId}</code> ({record.route}), key <code>{record.keyId}</code>
              {record.clientRequestId && (
                <>
                  , your request id <code>{record.clientRequestId}</code>
                </>
              )}
              .
            </Text>
            <Text fw={700} data-testid="record-charge">
              Charged {displayMoney(record.cost)}
            </Text>
            <Rows rows={[record]} caption="This record" />
            {record.subjectId && <Rows rows={related} caption={`Other records of ${record.subjectId} (${related.length})`} />}
          </Stack>
        )}
      </QueryState>
    </Modal>
  );
}
