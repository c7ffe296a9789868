import { GatewayError } from '@gateway/contracts';
import type { ApplyPlan } from './config-plan.types';

function canonical(value: unknown): string {
  if (value instanceof Date) return `date:${value.getTime()}`;
  if (typeof value === 'bigint') return `bigint:${value}`;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${k}:${canonical(v)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return JSON.stringify(value) ?? 'undefined';
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** Names of the fields whose values differ between what is stored and what the file asks for. */
export function changedFields<T extends object>(current: T, desired: T, fields: readonly (keyof T & string)[]): string[] {
  return fields.filter((field) => !sameValue(current[field], desired[field]));
}

/** Records one entity's outcome in the plan's result. */
export function record(plan: ApplyPlan, label: string, outcome: 'created' | 'unchanged' | string[]): void {
  if (outcome === 'created') {
    plan.result.created += 1;
    plan.result.changes.push(`${label}: created`);
  } else if (outcome === 'unchanged' || outcome.length === 0) {
    plan.result.unchanged += 1;
  } else {
    plan.result.updated += 1;
    plan.result.changes.push(`${label}: updated (${outcome.join(', ')})`);
  }
}

/** A bad reference or duplicate in the file: invalid_request whose message and param name the path. */
export function invalidAt(path: string, message: string): GatewayError {
  return GatewayError.invalid(`Invalid value for '${path}': ${message}`, path);
}

export function rejectDuplicates<T>(items: readonly T[], key: (item: T) => string, path: (index: number) => string, what: string): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const id = key(item);
    if (seen.has(id)) throw invalidAt(path(index), `${what} "${id}" is listed twice`);
    seen.add(id);
  });
}
