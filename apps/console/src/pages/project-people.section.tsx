import { ConsoleRole } from '@gateway/contracts/console';
import { Button, Group, List, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { grantProjectRole, projectsQuery, type ProjectRow } from '../api/projects.api';
import { ErrorAlert } from '../components/error-alert';

const ROLES = [...ConsoleRole.options.map((value) => ({ value, label: value })), { value: 'none', label: 'none (their tenant role only)' }];

function GrantForm({ project }: { project: string }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('developer');
  const grant = useMutation({
    mutationFn: () => grantProjectRole(project, email.trim(), role === 'none' ? null : ConsoleRole.parse(role)),
    onSuccess: async () => {
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    grant.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={`Give a role on project ${project}`}>
      <Group align="flex-end">
        <TextInput label="Email" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <NativeSelect label="Project role" data={ROLES} value={role} onChange={(e) => setRole(e.currentTarget.value)} />
        <Button type="submit" variant="default" loading={grant.isPending}>
          Give role
        </Button>
      </Group>
      <ErrorAlert error={grant.error} title="Could not give the role" />
    </form>
  );
}

/** The people given a role on one project (beside their tenant role); tenant owners give and take such roles. */
export function ProjectPeople({ project, canGrant }: { project: ProjectRow; canGrant: boolean }) {
  return (
    <Stack gap="xs">
      {project.members.length === 0 ? (
        <Text size="sm">Nobody has a role of their own here: everyone acts with their tenant role.</Text>
      ) : (
        <List size="sm" aria-label={`People of project ${project.name}`}>
          {project.members.map((member) => (
            <List.Item key={member.email} data-testid="project-member">
              {member.email}: {member.role} here (tenant role {member.tenantRole})
            </List.Item>
          ))}
        </List>
      )}
      {canGrant && <GrantForm project={project.name} />}
    </Stack>
  );
}
