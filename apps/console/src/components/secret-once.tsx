import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** A secret the server shows only now: the value, a copy button, and the warning that it will not come back. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <Alert variant="default" title={`${label}: copy it now`} role="status">
      <Stack gap="sm">
        <Text size="sm">This is the only time it is shown. Store it somewhere safe; if it is lost, make a new one.</Text>
        <Code block data-testid="secret-value" aria-label={label}>
          {value}
        </Code>
        <Group>
          <CopyButton value={value}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          <Button variant="default" onClick={onDone}>
            I have stored it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
