import { type BudgetView } from '@gateway/contracts/console';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { projectsQuery, type BudgetTarget, type ProjectKeyRow, type ProjectRow } from '../api/projects.api';
import { sessionQuery } from '../api/session';
import { may } from '../api/tenant.api';
import { BudgetBar, SpendLine } from '../components/budget-bar';
import { QueryState } from '../components/query-state';
import { BudgetEditorDialog } from './budget-editor.dialog';
import { ProjectPeople } from './project-people.section';

type Editing = { target: BudgetTarget; budget: BudgetView | null } | null;

/** A project's or key's budget as the person may see it: the bar, the spend alone, or nothing set. */
function BudgetCell({ row, label }: { row: Pick<ProjectRow, 'budget' | 'spend'>; label: string }) {
  if (row.budget) return <BudgetBar budget={row.budget} label={label} />;
  if (row.spend) return <SpendLine spend={row.spend} />;
  return <Text size="sm">No budget</Text>;
}

function KeysTable({ project, onEdit }: { project: ProjectRow; onEdit: (key: ProjectKeyRow) => void }) {
  const canEdit = project.rights.includes('budget-set');
  if (project.keys.length === 0) return <Text size="sm">No keys in this project.</Text>;
  return (
    <Table captionSide="top" data-testid="project-keys">
      <Table.Caption>Keys of project {project.name}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Key</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
          <Table.Th scope="col">Budget</Table.Th>
          {canEdit && <Table.Th scope="col">Actions</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {project.keys.map((key) => (
          <Table.Tr key={key.id} data-testid="project-key">
            <Table.Td>
              {key.name} <code>{key.masked}</code>
            </Table.Td>
            <Table.Td>{key.status}</Table.Td>
            <Table.Td>
              <BudgetCell row={key} label={`Key ${key.name}`} />
            </Table.Td>
            {canEdit && (
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => onEdit(key)} aria-label={`Budget of key ${key.name}`}>
                  Budget
                </Button>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ProjectCard({ project, canGrant, onEdit }: { project: ProjectRow; canGrant: boolean; onEdit: (editing: NonNullable<Editing>) => void }) {
  const canEdit = project.rights.includes('budget-set');
  return (
    <Card withBorder data-testid="project-card" aria-labelledby={`project-${project.name}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={2} size="h3" id={`project-${project.name}`}>
              {project.name}
            </Title>
            <Text size="sm">(your role here: {project.role})</Text>
          </Group>
          {canEdit && (
            <Button
              size="xs"
              onClick={() => onEdit({ target: { kind: 'project', project: project.name, label: `project ${project.name}` }, budget: project.budget })}
              aria-label={`Budget of project ${project.name}`}
            >
              {project.budget ? 'Change budget' : 'Set budget'}
            </Button>
          )}
        </Group>
        <BudgetCell row={project} label={`Project ${project.name}`} />
        <KeysTable project={project} onEdit={(key) => onEdit({ target: { kind: 'key', id: key.id, label: `key ${key.name}` }, budget: key.budget })} />
        <Title order={3} size="h5">
          People
        </Title>
        <ProjectPeople project={project} canGrant={canGrant} />
      </Stack>
    </Card>
  );
}

/** Projects: each with its keys, people and budgets; tenant and project owners set budgets, viewers see spend only. */
export function ProjectsPage() {
  const { data: me } = useSuspenseQuery(sessionQuery);
  const projects = useQuery(projectsQuery);
  const [editing, setEditing] = useState<Editing>(null);
  return (
    <Stack>
      <Title order={1}>Projects</Title>
      <Text>
        A project groups keys. A budget on a project or a key caps what it spends each period; a person’s role on a project is the higher of their tenant role
        and the role given them there.
      </Text>
      <QueryState query={projects} isEmpty={(list) => list.data.length === 0} empty="No projects yet.">
        {(list) => (
          <Stack>
            {list.data.map((project) => (
              <ProjectCard key={project.name} project={project} canGrant={may(me, 'people')} onEdit={setEditing} />
            ))}
          </Stack>
        )}
      </QueryState>
      <BudgetEditorDialog target={editing?.target ?? null} budget={editing?.budget ?? null} onClose={() => setEditing(null)} />
    </Stack>
  );
}
