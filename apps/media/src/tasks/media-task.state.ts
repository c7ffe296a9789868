// The one state machine of every media task, whatever its family: a pure function of (state, event).
// Each family's status words are mappings of these states (families/*.codec.ts).

export type MediaTaskState = 'queued' | 'submitted' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export const TERMINAL_STATES: readonly MediaTaskState[] = ['succeeded', 'failed', 'cancelled'];

export type MediaTaskEvent = 'submitted' | 'progressed' | 'succeeded' | 'failed' | 'cancelled' | 'deadline';

export function isTerminal(state: MediaTaskState): boolean {
  return TERMINAL_STATES.includes(state);
}

/** The state after `event`, or null when the event cannot move a task in `state` (a terminal task never moves again). */
export function nextState(state: MediaTaskState, event: MediaTaskEvent): MediaTaskState | null {
  if (isTerminal(state)) return null;
  switch (event) {
    case 'submitted':
      return state === 'queued' ? 'submitted' : null;
    case 'progressed':
      return 'running';
    case 'succeeded':
      return 'succeeded';
    case 'failed':
    case 'deadline':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}
