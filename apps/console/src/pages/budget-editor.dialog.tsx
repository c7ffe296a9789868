import { BudgetMode, BudgetPeriod, DEFAULT_ALERT_AT, displayMoney, type BudgetView } from '@gateway/contracts/console';
import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { clearBudget, projectsQuery, setBudget, type BudgetTarget } from '../api/projects.api';
import { BudgetBar } from '../components/budget-bar';
import { ErrorAlert } from '../components/error-alert';

const PERIODS = BudgetPeriod.options.map((value) => ({ value, label: { day: 'Each day', week: 'Each week', month: 'Each month', total: 'In total' }[value] }));
const MODES = BudgetMode.options.map((value) => ({ value, label: value === 'hard' ? 'Hard: refuse requests past it' : 'Soft: alert only' }));

/** "50, 80, 100" → [50, 80, 100]; the server says what is wrong with anything else. */
const sharesOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);

function BudgetForm({ target, budget, onDone }: { target: BudgetTarget; budget: BudgetView | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(budget ? displayMoney(budget.amount) : '');
  const [period, setPeriod] = useState<BudgetPeriod>(budget?.period ?? 'month');
  const [mode, setMode] = useState<BudgetMode>(budget?.mode ?? 'hard');
  const [alertAt, setAlertAt] = useState((budget?.alertAt ?? DEFAULT_ALERT_AT).join(', '));
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    onDone();
  };
  const save = useMutation({ mutationFn: () => setBudget(target, { amount: amount.trim(), period, mode, alertAt: sharesOf(alertAt) }), onSuccess: done });
  const clear = useMutation({ mutationFn: () => clearBudget(target), onSuccess: done });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Budget">
      <Stack>
        {budget ? <BudgetBar budget={budget} label="Now" /> : <Text size="sm">No budget yet: only the tenant’s balance limits spending.</Text>}
        <TextInput
          label="Amount"
          description="in your balance’s currency, up to 6 decimals"
          required
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
        />
        <NativeSelect label="Period" data={PERIODS} value={period} onChange={(e) => setPeriod(BudgetPeriod.parse(e.currentTarget.value))} />
        <NativeSelect label="Mode" data={MODES} value={mode} onChange={(e) => setMode(BudgetMode.parse(e.currentTarget.value))} />
        <TextInput
          label="Alert at (% of the amount)"
          description="comma-separated shares, each alerted once a period"
          value={alertAt}
          onChange={(e) => setAlertAt(e.currentTarget.value)}
        />
        <ErrorAlert error={save.error ?? clear.error} title="Could not change the budget" />
        <Group justify="flex-end">
          {budget && (
            <Button variant="default" onClick={() => clear.mutate()} loading={clear.isPending}>
              Remove budget
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            Save budget
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Sets, changes or removes the budget of a project or a key: amount, period, mode and alert shares. */
export function BudgetEditorDialog({ target, budget, onClose }: { target: BudgetTarget | null; budget: BudgetView | null; onClose: () => void }) {
  // The title stays while the dialog fades out after its target is gone.
  const [label, setLabel] = useState('');
  if (target && target.label !== label) setLabel(target.label);
  return (
    <Modal opened={target !== null} onClose={onClose} title={`Budget of ${label}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      {target && <BudgetForm key={target.kind === 'key' ? target.id : target.project} target={target} budget={budget} onDone={onClose} />}
    </Modal>
  );
}
