import { Container, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the pages before sign-in: one centred card under a main landmark. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={440} py={64} component="main" id="main">
      <Title order={1} ta="center" mb="lg">
        {title}
      </Title>
      <Paper withBorder shadow="sm" p="xl" radius="md">
        {children}
      </Paper>
    </Container>
  );
}
