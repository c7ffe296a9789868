import { DeliverySlots } from './delivery-slots';

describe('delivery slots', () => {
  it('wakes the oldest delivery deferred by a share when that share frees a slot, once', () => {
    const slots = new DeliverySlots(1, 10);
    const woken: string[] = [];
    slots.onFreed((waiter) => woken.push(waiter));
    const release = slots.tryAcquire('t1', 'https://a.example/hook')!;
    expect(slots.tryAcquire('t1', 'https://a.example/other', 'job-1')).toBeNull();
    expect(slots.tryAcquire('t2', 'https://a.example/x', 'job-2')).toBeNull();
    release();
    release();
    expect(woken).toEqual(['job-1']);
  });

  it('forgets a waiter that got a slot before it was woken', () => {
    const slots = new DeliverySlots(1, 10);
    const woken: string[] = [];
    slots.onFreed((waiter) => woken.push(waiter));
    const first = slots.tryAcquire('t1', 'https://a.example/hook')!;
    expect(slots.tryAcquire('t1', 'https://a.example/hook', 'job-1')).toBeNull();
    expect(slots.tryAcquire('t1', 'https://a.example/hook', 'job-2')).toBeNull();
    first();
    expect(woken).toEqual(['job-1']);
    const second = slots.tryAcquire('t1', 'https://a.example/hook', 'job-2')!;
    expect(second).not.toBeNull();
    second();
    expect(woken).toEqual(['job-1']);
  });

  it('wakes from the tenant share when the tenant, not the receiver, was full', () => {
    const slots = new DeliverySlots(5, 1);
    const woken: string[] = [];
    slots.onFreed((waiter) => woken.push(waiter));
    const release = slots.tryAcquire('t1', 'https://a.example/hook')!;
    expect(slots.tryAcquire('t1', 'https://b.example/hook', 'job-b')).toBeNull();
    expect(slots.tryAcquire('t2', 'https://b.example/hook')).not.toBeNull();
    release();
    expect(woken).toEqual(['job-b']);
  });
});

describe('waiting for a slot in the worker', () => {
  it('gets the slot its share frees within the wait, before any deferred delivery', async () => {
    const slots = new DeliverySlots(1, 10);
    const woken: string[] = [];
    slots.onFreed((waiter) => woken.push(waiter));
    const first = slots.tryAcquire('t1', 'https://a.example/hook')!;
    expect(slots.tryAcquire('t1', 'https://a.example/hook', 'deferred-job')).toBeNull();
    const waiting = slots.acquire('t1', 'https://a.example/hook', 5_000, 'job-here');
    first();
    const release = await waiting;
    expect(release).not.toBeNull();
    expect(woken).toEqual([]);
    expect(slots.receiverLoad('https://a.example/x')).toBe(1);
    release!();
    expect(woken).toEqual(['deferred-job']);
  });

  it('gives up after the wait and is remembered to be woken', async () => {
    const slots = new DeliverySlots(1, 10);
    const woken: string[] = [];
    slots.onFreed((waiter) => woken.push(waiter));
    const first = slots.tryAcquire('t1', 'https://a.example/hook')!;
    expect(await slots.acquire('t1', 'https://a.example/hook', 20, 'job-late')).toBeNull();
    first();
    expect(woken).toEqual(['job-late']);
  });
});
