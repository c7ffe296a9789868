import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { keyLimitsQuery, setKeyLimits, type KeyLimits, type RateLimitsInput } from '../api/tenant-data.api';
import { ErrorAlert } from '../components/error-alert';
import { QueryState } from '../components/query-state';

const FIELDS: { field: keyof RateLimitsInput; label: string }[] = [
  { field: 'rpm', label: 'Requests per minute' },
  { field: 'tpm', label: 'Tokens per minute' },
  { field: 'concurrency', label: 'Requests at once' },
];

const describe = (limits: RateLimitsInput | null) =>
  limits && Object.keys(limits).length
    ? FIELDS.flatMap(({ field, label }) => (limits[field] ? [`${label.toLowerCase()}: ${limits[field]}`] : [])).join(', ')
    : 'none';

function LimitsForm({ keyId, limits, canManage, onDone }: { keyId: string; limits: KeyLimits; canManage: boolean; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<RateLimitsInput>(limits.own ?? {});
  const save = useMutation({
    mutationFn: (next: RateLimitsInput | null) => setKeyLimits(keyId, next),
    onSuccess: (saved) => {
      queryClient.setQueryData(keyLimitsQuery(keyId).queryKey, saved);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const own = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'number' && v > 0)) as RateLimitsInput;
    save.mutate(Object.keys(own).length ? own : null);
  };
  return (
    <form onSubmit={submit} aria-label="Key limits">
      <Stack>
        <Text size="sm" data-testid="limits-effective">
          Applies now: {describe(limits.effective)}
          {limits.own === null && limits.tenantDefault !== null ? ' (your tenant’s default for each key)' : ''}.
        </Text>
        <Text size="sm">Tenant-wide limits, beside the key’s: {describe(limits.tenant)}.</Text>
        {FIELDS.map(({ field, label }) => (
          <NumberInput
            key={field}
            label={label}
            description="empty: no limit of the key's own"
            min={1}
            allowDecimal={false}
            disabled={!canManage}
            value={values[field] ?? ''}
            onChange={(value) => setValues((v) => ({ ...v, [field]: typeof value === 'number' ? value : undefined }))}
          />
        ))}
        <ErrorAlert error={save.error} title="Could not save the limits" />
        {canManage ? (
          <Group justify="flex-end">
            <Button variant="default" onClick={() => save.mutate(null)} loading={save.isPending && save.variables === null}>
              Clear the key’s limits
            </Button>
            <Button type="submit" loading={save.isPending && save.variables !== null}>
              Save limits
            </Button>
          </Group>
        ) : (
          <Text size="sm">Your role can see limits but not change them.</Text>
        )}
      </Stack>
    </form>
  );
}

/** A key's rate limits: its own (owners and developers set them), its tenant's default for each key, and the tenant-wide ones. */
export function KeyLimitsDialog({ keyRow, canManage, onClose }: { keyRow: { id: string; name: string } | null; canManage: boolean; onClose: () => void }) {
  const limits = useQuery({ ...keyLimitsQuery(keyRow?.id ?? ''), enabled: keyRow !== null });
  return (
    <Modal opened={keyRow !== null} onClose={onClose} title={`Limits of key "${keyRow?.name ?? ''}"`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <QueryState query={limits} isEmpty={() => false} empty="">
        {(data) => <LimitsForm key={keyRow!.id} keyId={keyRow!.id} limits={data} canManage={canManage} onDone={onClose} />}
      </QueryState>
    </Modal>
  );
}
