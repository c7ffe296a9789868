// One table between reasoning effort levels (oaic `reasoning_effort`, responses `reasoning.effort`,
// genc `thinkingLevel`) and thinking budgets in tokens (msgc `thinking.budget_tokens`, genc
// `thinkingBudget`). A budget maps to the highest level whose budget it reaches.
//
// | effort  | budget (tokens) | a budget of      |
// | ------- | --------------- | ---------------- |
// | minimal | 1,024           | below 2,048      |
// | low     | 2,048           | 2,048 – 8,191    |
// | medium  | 8,192           | 8,192 – 24,575   |
// | high    | 24,576          | 24,576 and above |
import type { IrEffort } from './chat-ir.schema';

export const EFFORT_BUDGETS: Readonly<Record<IrEffort, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 24576 };

/** The smallest budget Anthropic accepts for extended thinking. */
export const MIN_THINKING_BUDGET = 1024;

export function budgetOfEffort(effort: IrEffort): number {
  return EFFORT_BUDGETS[effort];
}

export function effortOfBudget(budget: number): IrEffort {
  if (budget >= EFFORT_BUDGETS.high) return 'high';
  if (budget >= EFFORT_BUDGETS.medium) return 'medium';
  if (budget >= EFFORT_BUDGETS.low) return 'low';
  return 'minimal';
}

/** An effort word from any family (`xhigh`, `LOW`, …) as an IR level; null for none or an unknown word. */
export function effortOfWord(word: string): IrEffort | null {
  const lower = word.toLowerCase();
  if (lower === 'xhigh' || lower === 'max') return 'high';
  return lower === 'minimal' || lower === 'low' || lower === 'medium' || lower === 'high' ? lower : null;
}
