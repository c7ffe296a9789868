import { FundsGate } from './funds-gate';

const refused = { fundsRefused: true };
const served = { fundsRefused: false };

describe('FundsGate: when a batch line refused for funds waits', () => {
  it('lets a line nobody stands in front of, and no line of whose tenant was served, fail at once', async () => {
    const gate = new FundsGate();
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t')).toBe(false);
    // Lines that were all refused do not keep each other waiting.
    const waiting = gate.wait('t', 20);
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t')).toBe(false);
    await waiting;
  });

  it('waits while another line of the tenant is in a call, and not for another tenant’s', async () => {
    const gate = new FundsGate();
    let finish!: (value: typeof served) => void;
    const holder = gate.attempt('t', () => new Promise<typeof served>((resolve) => (finish = resolve)));
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t')).toBe(true);
    expect(gate.othersMayHold('other')).toBe(false);
    finish(served);
    await holder;
  });

  it('waits for a while after a line of the tenant was served, its hold ending once its usage is booked, then forgets it', async () => {
    let now = 1_000;
    const gate = new FundsGate(() => now, 15_000);
    await gate.attempt('t', async () => served);
    // The served line's call has returned and no line of the tenant is in a call or waiting.
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t')).toBe(true);
    now += 14_999;
    expect(gate.othersMayHold('t')).toBe(true);
    now += 1;
    expect(gate.othersMayHold('t')).toBe(false);
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t')).toBe(false);
  });

  it('waits from 50–150 ms, doubling to at most 1–3 s', () => {
    expect(FundsGate.waitMs(1, () => 0)).toBe(50);
    expect(FundsGate.waitMs(1, () => 1)).toBe(150);
    expect(FundsGate.waitMs(3, () => 0.5)).toBe(400);
    expect(FundsGate.waitMs(30, () => 0.5)).toBe(2_000);
    expect(FundsGate.waitMs(30, () => 1)).toBe(3_000);
  });
});
