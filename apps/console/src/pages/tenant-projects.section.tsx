import { Card, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { tenantProjectsQuery, type ProjectRow } from '../api/projects.api';
import { BudgetBar } from '../components/budget-bar';
import { QueryState } from '../components/query-state';

function ProjectFacts({ project }: { project: ProjectRow }) {
  const budgeted = project.keys.filter((key) => key.budget !== null);
  return (
    <Card withBorder data-testid="tenant-project">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {project.name}
          </Title>
          <Text size="sm">{project.keys.length} key(s)</Text>
        </Group>
        {project.budget ? <BudgetBar budget={project.budget} label={`Project ${project.name}`} /> : <Text size="sm">No project budget</Text>}
        {budgeted.length > 0 && (
          <Table captionSide="top">
            <Table.Caption>Key budgets of project {project.name}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Key</Table.Th>
                <Table.Th scope="col">Budget</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {budgeted.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>{key.name}</Table.Td>
                  <Table.Td>
                    <BudgetBar budget={key.budget!} label={`Key ${key.name}`} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {project.members.length > 0 && (
          <List size="sm" aria-label={`People with a role on project ${project.name}`}>
            {project.members.map((member) => (
              <List.Item key={member.email}>
                {member.email}: {member.role} (tenant role {member.tenantRole})
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Card>
  );
}

/** The operator's view of a tenant's projects: each with its budget, its keys' budgets and its people's project roles. */
export function TenantProjects({ slug }: { slug: string }) {
  const projects = useQuery(tenantProjectsQuery(slug));
  return (
    <Stack>
      <Title order={2} size="h3">
        Projects and budgets
      </Title>
      <QueryState query={projects} isEmpty={(list) => list.data.length === 0} empty="No projects.">
        {(list) => (
          <Stack>
            {list.data.map((project) => (
              <ProjectFacts key={project.name} project={project} />
            ))}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
