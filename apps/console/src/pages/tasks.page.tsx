import { CONSOLE_TASK_STATUSES, type ConsoleTaskKind, type ConsoleTaskStatus, displayMoney } from '@gateway/contracts/console';
import { Anchor, Group, Progress, SegmentedControl, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { tasksQuery, type TaskRow } from '../api/tenant-data.api';
import { CursorPager, useCursorPages } from '../components/cursor-pager';
import { QueryState } from '../components/query-state';

const CAPTION: Record<ConsoleTaskKind, string> = { media: 'Media tasks', music: 'Music tasks', batch: 'Batches' };

function Charge({ task }: { task: TaskRow }) {
  if (!task.charge) return <Text size="sm">not billed</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm">charged {displayMoney(task.charge.charged)}</Text>
      {task.charge.refundedMicros !== '0' && <Text size="sm">refunded {displayMoney(task.charge.refunded)}</Text>}
    </Stack>
  );
}

function Results({ task }: { task: TaskRow }) {
  if (task.results.length === 0 && task.fileIds.length > 0) {
    return (
      <Stack gap={0}>
        {task.fileIds.map((id) => (
          <Text size="sm" key={id}>
            file <code>{id}</code>
          </Text>
        ))}
        {task.error && <Text size="sm">{task.error}</Text>}
      </Stack>
    );
  }
  if (task.results.length === 0) return <Text size="sm">{task.error ?? '—'}</Text>;
  return (
    <Stack gap={0}>
      {task.results.map((link, index) => (
        <Anchor key={link} href={link} target="_blank" rel="noreferrer" size="sm">
          Result {index + 1}
          <VisuallyHidden> of task {task.id}</VisuallyHidden>
        </Anchor>
      ))}
    </Stack>
  );
}

/** Media and music tasks, newest first and paged on the server: status, progress, signed result links, charge and refund. */
export function TasksPage() {
  const [kind, setKind] = useState<ConsoleTaskKind>('media');
  const [status, setStatus] = useState<ConsoleTaskStatus | null>(null);
  const pages = useCursorPages(`${kind}:${status}`);
  const tasks = useQuery({
    ...tasksQuery({ kind, status: status ?? undefined, cursor: pages.cursor }),
    // Live tasks move on their own: look again while any on the page is still going.
    refetchInterval: (query) => (query.state.data?.data.some((t) => t.status === 'queued' || t.status === 'running') ? 2000 : false),
  });
  return (
    <Stack>
      <Title order={1}>Tasks</Title>
      <Text>
        Video, image and music tasks and batches your keys started. Result links are signed and expire: reload the page for fresh ones. A batch’s output and
        error files are read with a key through the files API.
      </Text>
      <Group align="flex-end">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="task-kind-label">
            Kind
          </Text>
          <SegmentedControl
            aria-labelledby="task-kind-label"
            value={kind}
            onChange={(value) => setKind(value as ConsoleTaskKind)}
            data={[
              { value: 'media', label: 'Media' },
              { value: 'music', label: 'Music' },
              { value: 'batch', label: 'Batches' },
            ]}
          />
        </Stack>
        <Select
          label="Status"
          placeholder="every status"
          clearable
          value={status}
          onChange={(value) => setStatus(value as ConsoleTaskStatus | null)}
          data={[...CONSOLE_TASK_STATUSES]}
        />
      </Group>
      <QueryState query={tasks} isEmpty={(p) => p.data.length === 0} empty="No tasks match. Tasks your keys start show here.">
        {(p) => (
          <>
            <Table striped captionSide="top" data-testid="tasks">
              <Table.Caption>{CAPTION[kind]}, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Task</Table.Th>
                  <Table.Th scope="col">Model</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Progress</Table.Th>
                  <Table.Th scope="col">Results</Table.Th>
                  <Table.Th scope="col">Charge</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.data.map((task) => (
                  <Table.Tr key={task.id} data-testid="task-row">
                    <Table.Td>
                      <code>{task.id}</code>
                      <Text size="xs">{task.route}</Text>
                    </Table.Td>
                    <Table.Td>
                      <code>{task.model}</code>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {task.status}
                      </Text>
                    </Table.Td>
                    <Table.Td miw={100}>
                      {task.progress === null ? '—' : <Progress value={task.progress} aria-label={`Progress of task ${task.id}: ${task.progress}%`} />}
                    </Table.Td>
                    <Table.Td>
                      <Results task={task} />
                    </Table.Td>
                    <Table.Td>
                      <Charge task={task} />
                    </Table.Td>
                    <Table.Td>{new Date(task.createdAt).toLocaleString()}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <CursorPager label="Tasks" page={pages.page} nextCursor={p.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
