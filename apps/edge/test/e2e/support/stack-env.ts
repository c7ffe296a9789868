/**
 * What every stack a spec launches runs with. The accounts service answers requests a spec waits on (keys,
 * catalog, top-ups); under its default idle CPU policy it runs only on a CPU nothing else wants, so beside a
 * busy core (a loaded CI machine, `npm run test:stress`) it could wait seconds for one and the spec time out.
 */
export const SPEC_STACK_ENV = {
  NO_COLOR: '1',
  ACCOUNTS_CPU_POLICY: 'normal',
  ACCOUNTS_NICE: '0',
} as const;
