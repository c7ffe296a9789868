import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionQuery } from '../api/session';
import { createKey, keysQuery, may, regenerateKey, revokeKey, type KeyRow, type KeySecret } from '../api/tenant.api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useDangerColor } from '../components/danger-color';
import { ErrorAlert } from '../components/error-alert';
import { pageOf, Pager } from '../components/paged';
import { QueryState } from '../components/query-state';
import { SecretOnce } from '../components/secret-once';
import { KeyLimitsDialog } from './key-limits.dialog';

type Pending = { action: 'regenerate' | 'revoke'; key: KeyRow } | null;

/** API keys: the masked list; owners and developers create (the key shown once), regenerate and revoke. */
export function KeysPage() {
  const danger = useDangerColor();
  const { data: me } = useSuspenseQuery(sessionQuery);
  const canManage = may(me, 'keys');
  const queryClient = useQueryClient();
  const keys = useQuery(keysQuery);
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<KeySecret | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [limitsOf, setLimitsOf] = useState<KeyRow | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keysQuery.queryKey });

  const create = useMutation({
    mutationFn: () => createKey(name.trim()),
    onSuccess: (secret) => {
      setShown(secret);
      setName('');
      void refresh();
    },
  });
  const act = useMutation({
    mutationFn: async (p: NonNullable<Pending>) => (p.action === 'regenerate' ? regenerateKey(p.key.id) : (await revokeKey(p.key.id), null)),
    onSuccess: (secret) => {
      setPending(null);
      if (secret) setShown(secret);
      void refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Stack>
      <Title order={1}>API keys</Title>
      <Text>Keys let programs call the gateway for your tenant. Only a masked form is kept here: a key is shown once, when it is made.</Text>
      {shown && <SecretOnce label={`New secret of key "${shown.masked}"`} value={shown.key} onDone={() => setShown(null)} />}
      {canManage ? (
        <form onSubmit={submit} aria-label="Create a key">
          <Group align="flex-end">
            <TextInput label="Key name" placeholder="backend" required maxLength={64} value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </Group>
          <ErrorAlert error={create.error} title="Could not create the key" />
        </form>
      ) : (
        <Text size="sm">Your role ({me?.role}) can see keys but not create or change them.</Text>
      )}
      <ErrorAlert error={act.error} title="Could not change the key" />
      <QueryState query={keys} isEmpty={(list) => list.data.length === 0} empty="No keys yet.">
        {(list) => (
          <>
            <Table striped highlightOnHover captionSide="top">
              <Table.Caption>Keys of this tenant</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Name</Table.Th>
                  <Table.Th scope="col">Project</Table.Th>
                  <Table.Th scope="col">Key</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pageOf(list.data, page).map((key) => (
                  <Table.Tr key={key.id} data-testid="key-row">
                    <Table.Td>{key.name}</Table.Td>
                    <Table.Td>{key.project}</Table.Td>
                    <Table.Td>
                      <code>{key.masked}</code>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {key.status}
                      </Text>
                    </Table.Td>
                    <Table.Td>{new Date(key.created_at).toLocaleString()}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        <Button size="xs" variant="subtle" onClick={() => setLimitsOf(key)} aria-label={`Limits of key ${key.name}`}>
                          Limits
                        </Button>
                        {canManage && key.status === 'active' && (
                          <>
                            <Button
                              size="xs"
                              variant="default"
                              onClick={() => setPending({ action: 'regenerate', key })}
                              aria-label={`Regenerate key ${key.name}`}
                            >
                              Regenerate
                            </Button>
                            <Button
                              size="xs"
                              variant="outline"
                              color={danger}
                              onClick={() => setPending({ action: 'revoke', key })}
                              aria-label={`Revoke key ${key.name}`}
                            >
                              Revoke
                            </Button>
                          </>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager total={list.data.length} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        opened={pending !== null}
        title={pending?.action === 'regenerate' ? 'Regenerate this key?' : 'Revoke this key?'}
        body={
          pending?.action === 'regenerate'
            ? `Key "${pending.key.name}" (${pending.key.masked}) gets a new secret; the current one stops working at once.`
            : `Key "${pending?.key.name}" (${pending?.key.masked}) stops working at once, for good.`
        }
        confirmLabel={pending?.action === 'regenerate' ? 'Regenerate' : 'Revoke'}
        onConfirm={() => pending && act.mutate(pending)}
        onCancel={() => setPending(null)}
        busy={act.isPending}
      />
      <KeyLimitsDialog keyRow={limitsOf} canManage={canManage} onClose={() => setLimitsOf(null)} />
    </Stack>
  );
}
