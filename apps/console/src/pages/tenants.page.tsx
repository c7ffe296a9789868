import { type ConsoleTenantRow, displayMoney } from '@gateway/contracts/console';
import { Alert, Anchor, Button, Group, Modal, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { createTenant, tenantsQuery, topUp, type NewTenant } from '../api/operator.api';
import { ErrorAlert } from '../components/error-alert';
import { PAGE_SIZE, Pager } from '../components/paged';
import { QueryState } from '../components/query-state';

function CreateTenantForm({ onCreated }: { onCreated: (slug: string) => void }) {
  const [form, setForm] = useState<NewTenant>({ slug: '', name: '', billing: 'payg', plan: '' });
  const create = useMutation({
    mutationFn: () =>
      createTenant({ slug: form.slug.trim(), name: form.name?.trim() || undefined, billing: form.billing, plan: form.plan?.trim() || undefined }),
    onSuccess: (tenant) => {
      setForm({ slug: '', name: '', billing: 'payg', plan: '' });
      onCreated(tenant.slug);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Create a tenant">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Create a tenant
        </Title>
        <Group align="flex-end">
          <TextInput
            label="Slug"
            description="lowercase letters, digits, . _ -"
            required
            value={form.slug}
            onChange={(e) => setForm({ ...form, slug: e.currentTarget.value })}
          />
          <TextInput label="Name" value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
          <NativeSelect
            label="Billing"
            data={[
              { value: 'payg', label: 'Pay as you go' },
              { value: 'plan', label: 'Plan' },
              { value: 'custom', label: 'Custom' },
            ]}
            value={form.billing}
            onChange={(e) => setForm({ ...form, billing: e.currentTarget.value as NewTenant['billing'] })}
          />
          {form.billing === 'plan' && <TextInput label="Plan" required value={form.plan} onChange={(e) => setForm({ ...form, plan: e.currentTarget.value })} />}
          <Button type="submit" loading={create.isPending}>
            Create tenant
          </Button>
        </Group>
        <ErrorAlert error={create.error} title="Could not create the tenant" />
      </Stack>
    </form>
  );
}

function TopUpDialog({ tenant, onClose }: { tenant: ConsoleTenantRow | null; onClose: (done: boolean) => void }) {
  const [amount, setAmount] = useState('');
  const top = useMutation({
    mutationFn: () => topUp(tenant!.slug, amount.trim()),
    onSuccess: () => {
      setAmount('');
      onClose(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    top.mutate();
  };
  return (
    <Modal opened={tenant !== null} onClose={() => onClose(false)} title={`Top up ${tenant?.slug ?? ''}`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} aria-label="Top up the balance">
        <Stack>
          <Text size="sm">Current balance: {tenant ? displayMoney(tenant.balance) : ''}</Text>
          <TextInput
            label="Amount"
            description="A decimal with at most 6 places, e.g. 25.00"
            inputMode="decimal"
            required
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
          />
          <ErrorAlert error={top.error} title="Could not top up" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={top.isPending}>
              Top up
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Every tenant, page by page (paged on the server), with its balance; create one, top one up. */
export function TenantsPage() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [topping, setTopping] = useState<ConsoleTenantRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const tenants = useQuery(tenantsQuery({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, search: debounced || undefined }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tenants'] });
  return (
    <Stack>
      <Title order={1}>Tenants</Title>
      {notice && (
        <Alert variant="default" role="status" withCloseButton onClose={() => setNotice(null)} closeButtonLabel="Dismiss">
          {notice}
        </Alert>
      )}
      <CreateTenantForm
        onCreated={(slug) => {
          setNotice(`Tenant ${slug} is created.`);
          void refresh();
        }}
      />
      <TextInput
        label="Search"
        placeholder="slug or name"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <QueryState
        query={tenants}
        isEmpty={(result) => result.total === 0}
        empty={debounced ? `No tenant matches “${debounced}”.` : 'No tenants yet: create the first above.'}
      >
        {(result) => (
          <>
            <Table striped highlightOnHover captionSide="top">
              <Table.Caption>Tenants, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Tenant</Table.Th>
                  <Table.Th scope="col">Billing</Table.Th>
                  <Table.Th scope="col">Balance</Table.Th>
                  <Table.Th scope="col">Keys</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.map((tenant) => (
                  <Table.Tr key={tenant.slug} data-testid="tenant-row">
                    <Table.Td>
                      <Anchor
                        fw={600}
                        size="sm"
                        aria-label={`Details of ${tenant.slug}`}
                        renderRoot={(props) => <Link to="/tenants/$slug" params={{ slug: tenant.slug }} {...props} />}
                      >
                        {tenant.slug}
                      </Anchor>
                      {tenant.name !== tenant.slug && <Text size="sm">{tenant.name}</Text>}
                    </Table.Td>
                    <Table.Td>
                      {tenant.billing}
                      {tenant.plan ? ` (${tenant.plan})` : ''}
                    </Table.Td>
                    <Table.Td data-testid="tenant-balance">{displayMoney(tenant.balance)}</Table.Td>
                    <Table.Td>{tenant.keys}</Table.Td>
                    <Table.Td>{new Date(tenant.createdAt).toLocaleDateString()}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" onClick={() => setTopping(tenant)} aria-label={`Top up ${tenant.slug}`}>
                        Top up
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager total={result.total} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
      <TopUpDialog
        tenant={topping}
        onClose={(done) => {
          if (done && topping) setNotice(`${topping.slug} is topped up.`);
          setTopping(null);
          if (done) void refresh();
        }}
      />
    </Stack>
  );
}
