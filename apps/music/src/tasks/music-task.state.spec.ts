import { MUSIC_CALLBACK_TYPES } from '@gateway/contracts';
import { callbacksOwed, isTerminal, moveFor } from './music-task.state';

const SONG = MUSIC_CALLBACK_TYPES;
const ONCE = ['complete'] as const;

describe('music task state machine', () => {
  it('moves forward stage by stage, owing one callback each', () => {
    expect(moveFor('PENDING', 'text', SONG)).toEqual({ to: 'TEXT_SUCCESS', callbacks: ['text'] });
    expect(moveFor('TEXT_SUCCESS', 'first', SONG)).toEqual({ to: 'FIRST_SUCCESS', callbacks: ['first'] });
    expect(moveFor('FIRST_SUCCESS', 'complete', SONG)).toEqual({ to: 'SUCCESS', callbacks: ['complete'] });
  });

  it('owes every stage it skips, in order, when it jumps ahead (polling, or callbacks out of order)', () => {
    expect(moveFor('PENDING', 'complete', SONG)).toEqual({ to: 'SUCCESS', callbacks: ['text', 'first', 'complete'] });
    expect(moveFor('TEXT_SUCCESS', 'complete', SONG)).toEqual({ to: 'SUCCESS', callbacks: ['first', 'complete'] });
  });

  it('never moves backwards, nor twice for a duplicate, nor out of a terminal state', () => {
    expect(moveFor('FIRST_SUCCESS', 'text', SONG)).toBeNull();
    expect(moveFor('FIRST_SUCCESS', 'first', SONG)).toBeNull();
    expect(moveFor('SUCCESS', 'complete', SONG)).toBeNull();
    expect(moveFor('SUCCESS', 'failed', SONG)).toBeNull();
    expect(moveFor('GENERATE_AUDIO_FAILED', 'complete', SONG)).toBeNull();
    expect(moveFor('PENDING', 'pending', SONG)).toBeNull();
  });

  it('fails from any open state, owing no callback', () => {
    expect(moveFor('FIRST_SUCCESS', 'failed', SONG)).toEqual({ to: 'GENERATE_AUDIO_FAILED', callbacks: [] });
  });

  it('owes only the stages a route reports', () => {
    expect(moveFor('PENDING', 'complete', ONCE)).toEqual({ to: 'SUCCESS', callbacks: ['complete'] });
    expect(moveFor('PENDING', 'text', ONCE)).toEqual({ to: 'TEXT_SUCCESS', callbacks: [] });
  });

  it('owes, in any state, every callback of the stages reached so far that the route reports', () => {
    expect(callbacksOwed('PENDING', SONG)).toEqual([]);
    expect(callbacksOwed('TEXT_SUCCESS', SONG)).toEqual(['text']);
    expect(callbacksOwed('FIRST_SUCCESS', SONG)).toEqual(['text', 'first']);
    expect(callbacksOwed('SUCCESS', SONG)).toEqual(['text', 'first', 'complete']);
    expect(callbacksOwed('SUCCESS', ONCE)).toEqual(['complete']);
    expect(callbacksOwed('FIRST_SUCCESS', ONCE)).toEqual([]);
    expect(callbacksOwed('GENERATE_AUDIO_FAILED', SONG)).toEqual([]);
    expect(callbacksOwed('CREATE_TASK_FAILED', SONG)).toEqual([]);
  });

  it('knows its terminal states', () => {
    expect(['PENDING', 'TEXT_SUCCESS', 'FIRST_SUCCESS'].map((s) => isTerminal(s as never))).toEqual([false, false, false]);
    expect(['SUCCESS', 'CREATE_TASK_FAILED', 'GENERATE_AUDIO_FAILED'].map((s) => isTerminal(s as never))).toEqual([true, true, true]);
  });
});
