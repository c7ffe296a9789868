import { isTerminal, nextState, TERMINAL_STATES, type MediaTaskEvent, type MediaTaskState } from './media-task.state';

const EVENTS: MediaTaskEvent[] = ['submitted', 'progressed', 'succeeded', 'failed', 'cancelled', 'deadline'];

describe('media task state machine', () => {
  it('moves queued → submitted → running → succeeded, and fails from any live state', () => {
    expect(nextState('queued', 'submitted')).toBe('submitted');
    expect(nextState('submitted', 'progressed')).toBe('running');
    expect(nextState('running', 'progressed')).toBe('running');
    expect(nextState('running', 'succeeded')).toBe('succeeded');
    for (const live of ['queued', 'submitted', 'running'] as MediaTaskState[]) {
      expect(nextState(live, 'failed')).toBe('failed');
      expect(nextState(live, 'deadline')).toBe('failed');
      expect(nextState(live, 'cancelled')).toBe('cancelled');
    }
    expect(nextState('running', 'submitted')).toBeNull();
  });

  it('never moves a terminal task again, whatever the event', () => {
    for (const state of TERMINAL_STATES) {
      expect(isTerminal(state)).toBe(true);
      for (const event of EVENTS) expect(nextState(state, event)).toBeNull();
    }
  });
});
