export * from './budget.schema';
export * from './budget-period';
