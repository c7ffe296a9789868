import type { ConsoleDeadLetterRow } from '@gateway/contracts/console';
import { Alert, Button, Code, Group, Modal, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deadLetterQuery, deadLettersQuery, replayDeadLetters } from '../api/operator-pages.api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorAlert } from '../components/error-alert';
import { PAGE_SIZE } from '../components/paged';
import { QueryState } from '../components/query-state';

type Consumer = '' | 'usage' | 'ledger';

function Inspect({ id, onClose, onReplay }: { id: string | null; onClose: () => void; onReplay: (id: string) => void }) {
  const letter = useQuery({ ...deadLetterQuery(id ?? ''), enabled: id !== null });
  return (
    <Modal opened={id !== null} onClose={onClose} title={`Dead letter ${id ?? ''}`} size="xl" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {id !== null && (
        <QueryState query={letter} isEmpty={() => false} empty={null}>
          {(data) => (
            <Stack gap="sm">
              <Text size="sm">
                {data.consumer} · read from <code>{data.source}</code> · {data.deliveries} deliveries · dead-lettered {new Date(data.at).toLocaleString()}
              </Text>
              <Text fw={600}>Error</Text>
              <Code block>{data.error}</Code>
              <Text fw={600}>Payload (what a replay puts back)</Text>
              <Code block data-testid="dead-letter-payload" tabIndex={0} role="region" aria-label="Payload" style={{ maxHeight: 320, overflow: 'auto' }}>
                {data.payload}
              </Code>
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  Close
                </Button>
                <Button onClick={() => onReplay(data.id)}>Replay</Button>
              </Group>
            </Stack>
          )}
        </QueryState>
      )}
    </Modal>
  );
}

/** Records the usage and ledger writers could not store, oldest first, a page at a time: inspect one, replay it once its cause is fixed. */
export function DeadLettersPage() {
  const queryClient = useQueryClient();
  const [consumer, setConsumer] = useState<Consumer>('');
  // The ids each page starts after: the first page starts at the beginning.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const after = cursors[cursors.length - 1];
  const letters = useQuery(deadLettersQuery({ consumer: consumer || undefined, after, limit: PAGE_SIZE }));
  const [inspecting, setInspecting] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const replay = useMutation({
    mutationFn: (id: string) => replayDeadLetters([id]),
    onSuccess: (reply) => {
      setNotice(
        reply.replayed.length > 0
          ? `Dead letter ${reply.replayed.join(', ')} is replayed.`
          : `Dead letter ${reply.missing.join(', ')} is no longer stored: it was replayed already or has expired.`,
      );
      setConfirming(null);
      setInspecting(null);
      void queryClient.invalidateQueries({ queryKey: ['dead-letters'] });
    },
  });
  const row = (letter: ConsoleDeadLetterRow) => (
    <Table.Tr key={letter.id} data-testid="dead-letter-row">
      <Table.Td>{letter.id}</Table.Td>
      <Table.Td>{letter.consumer}</Table.Td>
      <Table.Td>{new Date(letter.at).toLocaleString()}</Table.Td>
      <Table.Td>{letter.deliveries}</Table.Td>
      <Table.Td maw={320}>
        <Text size="sm" lineClamp={2}>
          {letter.error}
        </Text>
      </Table.Td>
      <Table.Td maw={320}>
        <Text size="sm" ff="monospace" lineClamp={2}>
          {letter.preview}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setInspecting(letter.id)} aria-label={`Inspect dead letter ${letter.id}`}>
            Inspect
          </Button>
          <Button size="xs" onClick={() => setConfirming(letter.id)} aria-label={`Replay dead letter ${letter.id}`}>
            Replay
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Stack>
      <Title order={1}>Dead letters</Title>
      <Text>
        Usage and ledger records a writer could not store after its last delivery, kept with their error for 30 days. Fix the cause, then replay them to where
        they came from.
      </Text>
      {notice && (
        <Alert variant="default" role="status" withCloseButton onClose={() => setNotice(null)} closeButtonLabel="Dismiss">
          {notice}
        </Alert>
      )}
      <ErrorAlert error={replay.error} title="Could not replay" />
      <NativeSelect
        label="Writer"
        data={[
          { value: '', label: 'All' },
          { value: 'usage', label: 'Usage' },
          { value: 'ledger', label: 'Ledger' },
        ]}
        value={consumer}
        onChange={(e) => {
          setConsumer(e.currentTarget.value as Consumer);
          setCursors([undefined]);
        }}
        maw={240}
      />
      <QueryState query={letters} isEmpty={(result) => result.data.length === 0 && cursors.length === 1} empty="No dead letters: every record was written.">
        {(result) => (
          <>
            <Text size="sm" data-testid="dead-letters-stored">
              Stored now: usage {result.stored.usage}, ledger {result.stored.ledger}.
            </Text>
            <Table striped highlightOnHover captionSide="top">
              <Table.Caption>Dead letters, oldest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Id</Table.Th>
                  <Table.Th scope="col">Writer</Table.Th>
                  <Table.Th scope="col">Dead-lettered</Table.Th>
                  <Table.Th scope="col">Deliveries</Table.Th>
                  <Table.Th scope="col">Error</Table.Th>
                  <Table.Th scope="col">Payload</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>{result.data.map(row)}</Table.Tbody>
            </Table>
            <Group justify="flex-end">
              <Button variant="default" size="xs" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Previous page
              </Button>
              <Button variant="default" size="xs" disabled={result.next === null} onClick={() => result.next && setCursors([...cursors, result.next])}>
                Next page
              </Button>
            </Group>
          </>
        )}
      </QueryState>
      <Inspect id={inspecting} onClose={() => setInspecting(null)} onReplay={(id) => setConfirming(id)} />
      <ConfirmDialog
        opened={confirming !== null}
        title={`Replay dead letter ${confirming ?? ''}?`}
        body="Its record goes back to the stream it was read from and is written again; the dead letter is removed. Replay only once the cause is fixed."
        confirmLabel="Replay"
        onConfirm={() => confirming && replay.mutate(confirming)}
        onCancel={() => setConfirming(null)}
        busy={replay.isPending}
      />
    </Stack>
  );
}
