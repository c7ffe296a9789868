import { FundsGate } from './funds-gate';

const refused = { fundsRefused: true };
const served = { fundsRefused: false };

describe('FundsGate: when a batch line refused for funds waits', () => {
  it('lets a line nobody stands in front of fail at once', async () => {
    const gate = new FundsGate();
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t', -1)).toBe(false);
  });

  it('waits while another line of the tenant is in a call, and not for another tenant’s', async () => {
    const gate = new FundsGate();
    let finish!: (value: typeof served) => void;
    const holder = gate.attempt('t', () => new Promise<typeof served>((resolve) => (finish = resolve)));
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t', -1)).toBe(true);
    expect(gate.othersMayHold('other', -1)).toBe(false);
    finish(served);
    await holder;
  });

  it('waits once another line was served since it looked, and while that hold may not have ended; then fails', async () => {
    const gate = new FundsGate();
    const waiting = gate.wait('t', 50);
    const mark = gate.mark('t');
    await gate.attempt('t', async () => served);
    await gate.attempt('t', async () => refused);
    expect(gate.othersMayHold('t', mark)).toBe(true);
    // Seen, but served just now: its hold may still be held.
    const seen = gate.mark('t');
    expect(gate.othersMayHold('t', seen)).toBe(true);
    expect(gate.othersMayHold('t', seen, Date.now() + 3_001)).toBe(false);
    await waiting;
  });

  it('waits from 50–150 ms, doubling to at most 1–3 s', () => {
    expect(FundsGate.waitMs(1, () => 0)).toBe(50);
    expect(FundsGate.waitMs(1, () => 1)).toBe(150);
    expect(FundsGate.waitMs(3, () => 0.5)).toBe(400);
    expect(FundsGate.waitMs(30, () => 0.5)).toBe(2_000);
    expect(FundsGate.waitMs(30, () => 1)).toBe(3_000);
  });
});
