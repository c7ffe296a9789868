import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';

/**
 * Pages of a list the server pages by cursor: the cursors of the pages seen so far, so Previous goes
 * back and Next follows the server's `nextCursor`. Changing a filter starts again from the first page.
 */
export function useCursorPages(resetKey: string) {
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({ key: resetKey, cursors: [undefined] });
  const cursors = state.key === resetKey ? state.cursors : [undefined];
  return {
    page: cursors.length,
    cursor: cursors.at(-1),
    next: (cursor: string) => setState({ key: resetKey, cursors: [...cursors, cursor] }),
    previous: () => setState({ key: resetKey, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }),
  };
}

export function CursorPager({
  page,
  nextCursor,
  onNext,
  onPrevious,
  label,
}: {
  page: number;
  nextCursor: string | null | undefined;
  onNext: (cursor: string) => void;
  onPrevious: () => void;
  label: string;
}) {
  if (page === 1 && !nextCursor) return null;
  return (
    <Group justify="space-between" mt="md" role="navigation" aria-label={`${label} pages`}>
      <Text size="sm">Page {page}</Text>
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={onPrevious} disabled={page === 1}>
          Previous page
        </Button>
        <Button variant="default" size="xs" onClick={() => nextCursor && onNext(nextCursor)} disabled={!nextCursor}>
          Next page
        </Button>
      </Group>
    </Group>
  );
}
