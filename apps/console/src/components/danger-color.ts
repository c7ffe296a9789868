import { useComputedColorScheme } from '@mantine/core';

/** The red of an outlined destructive action that keeps its contrast on either background: dark on light, light on dark. */
export function useDangerColor(): string {
  return useComputedColorScheme('light') === 'dark' ? 'red.4' : 'red.9';
}
