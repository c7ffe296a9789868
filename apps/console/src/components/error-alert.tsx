import { Alert } from '@mantine/core';
import { ApiError } from '../api/http';

/** A failure said in the server's words (they name what to do), or a plain fallback. */
export function ErrorAlert({ error, title = 'That did not work' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const message = error instanceof ApiError || error instanceof Error ? error.message : 'Something went wrong: reload the page and try again.';
  return (
    <Alert color="red" title={title} role="alert" variant="default">
      {message}
    </Alert>
  );
}
