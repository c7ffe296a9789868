import { Box, Group, Text } from '@mantine/core';

/** A state in words beside a coloured dot: the words carry the meaning (and the contrast), the dot only helps the eye. */
export function StatusDot({ color, label }: { color: 'green' | 'yellow' | 'red' | 'gray'; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box aria-hidden w={10} h={10} style={{ borderRadius: '50%', flex: 'none', background: `var(--mantine-color-${color}-6)` }} />
      <Text size="sm" fw={600}>
        {label}
      </Text>
    </Group>
  );
}
