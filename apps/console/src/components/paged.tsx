import { Group, Pagination, Text } from '@mantine/core';

export const PAGE_SIZE = 20;

/** The rows of one page of a list held in full. */
export function pageOf<T>(rows: readonly T[], page: number, size = PAGE_SIZE): T[] {
  return rows.slice((page - 1) * size, page * size);
}

/** Page controls under a table, with what is shown; nothing when everything fits on one page. */
export function Pager({ total, page, onChange, size = PAGE_SIZE }: { total: number; page: number; onChange: (page: number) => void; size?: number }) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages === 1) return null;
  const first = (page - 1) * size + 1;
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm">
        {first}–{Math.min(total, page * size)} of {total}
      </Text>
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
      />
    </Group>
  );
}
