import { displayMicros, type BudgetView } from '@gateway/contracts/console';
import { Progress, Stack, Text } from '@mantine/core';

const PERIOD_WORDS = { day: 'today', week: 'this week', month: 'this month', total: 'in total' } as const;

/** Share of `part` in `whole`, 0–100, from micro-unit strings without floats on the money itself. */
function percentOf(part: string, whole: string): number {
  const total = BigInt(whole);
  if (total <= 0n) return 100;
  const share = (BigInt(part) * 10_000n) / total;
  return Math.min(100, Number(share) / 100);
}

/** A budget's current period as a bar of what is used and what is left, with the figures in words beside it. */
export function BudgetBar({ budget, label }: { budget: BudgetView; label: string }) {
  const used = percentOf(budget.usedMicros, budget.amountMicros);
  const words = `${displayMicros(budget.usedMicros)} used of ${displayMicros(budget.amountMicros)} ${PERIOD_WORDS[budget.period]}, ${displayMicros(budget.leftMicros)} left`;
  return (
    <Stack gap={4} data-testid="budget-bar">
      <Progress.Root size="lg" aria-hidden>
        <Progress.Section value={used} color={used >= 100 ? 'red.8' : used >= 80 ? 'orange.8' : 'blue.8'} />
        <Progress.Section value={100 - used} color="teal.8" />
      </Progress.Root>
      <Text size="sm">
        {label}: {words} ({budget.mode === 'hard' ? 'refuses past it' : 'alerts only'})
      </Text>
    </Stack>
  );
}

/** What a person who may not see budgets is shown: the spend alone. */
export function SpendLine({ spend }: { spend: { usedMicros: string; period: BudgetView['period'] } }) {
  return (
    <Text size="sm" data-testid="spend-line">
      {displayMicros(spend.usedMicros)} spent {PERIOD_WORDS[spend.period]}
    </Text>
  );
}
