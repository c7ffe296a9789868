// The order in which a model's channels are tried: lower priority number first; within one priority a
// weighted random order, so traffic spreads by weight while every channel stays a fallback.
import type { ChannelTarget } from '../provider.types';

export type RandomSource = () => number;

function weightedShuffle<T extends { weight: number }>(items: T[], random: RandomSource): T[] {
  const pool = [...items];
  const ordered: T[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, item) => sum + Math.max(0, item.weight), 0);
    let pick = 0;
    if (total > 0) {
      let target = random() * total;
      pick = pool.findIndex((item) => (target -= Math.max(0, item.weight)) < 0);
      if (pick < 0) pick = pool.length - 1;
    }
    ordered.push(pool.splice(pick, 1)[0]!);
  }
  return ordered;
}

export function orderChannels<T extends Pick<ChannelTarget, 'priority' | 'weight'>>(channels: readonly T[], random: RandomSource = Math.random): T[] {
  const byPriority = new Map<number, T[]>();
  for (const channel of channels) {
    const group = byPriority.get(channel.priority) ?? [];
    group.push(channel);
    byPriority.set(channel.priority, group);
  }
  return [...byPriority.keys()].sort((a, b) => a - b).flatMap((priority) => weightedShuffle(byPriority.get(priority)!, random));
}
