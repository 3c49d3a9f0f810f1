// Which workspace the screens show: a select of the caller's workspaces. Choosing one puts it
// into the address (so a link shows the same workspace) and remembers it for the next visit.
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Button } from 'react-aria-components/Button';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select, SelectValue } from 'react-aria-components/Select';
import { t } from '../i18n/i18n.ts';
import { chosenWorkspace, rememberWorkspace, useWorkspaces } from './use-workspaces.ts';

export function WorkspaceSwitcher() {
  const { data: workspaces } = useWorkspaces();
  const search = useSearch({ strict: false }) as { workspace?: number };
  const navigate = useNavigate();
  if (!workspaces || workspaces.length === 0) return null;
  const current = chosenWorkspace(workspaces, search.workspace);
  return (
    <Select
      className="workspace-switcher"
      selectedKey={current?.id ?? null}
      onSelectionChange={(key) => {
        rememberWorkspace(Number(key));
        void navigate({ to: '/locations', search: { workspace: Number(key) } });
      }}
    >
      <Label>{t('nav.workspace')}</Label>
      <Button className="button">
        <SelectValue />
        <span aria-hidden="true"> ▾</span>
      </Button>
      <Popover>
        <ListBox items={workspaces}>
          {(workspace) => <ListBoxItem id={workspace.id}>{workspace.name}</ListBoxItem>}
        </ListBox>
      </Popover>
    </Select>
  );
}
