// Tabs whose choice lives in the address (`?tab=`), so a reload or a shared link opens the same
// tab: the screen lists its tabs with their panels and moves the address when another is chosen.
// React Aria gives the keyboard behaviour (arrows between tabs, Tab into the panel).
import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components/Tabs';

export interface TabItem<K extends string> {
  id: K;
  label: string;
  panel: ReactNode;
  /** The panel takes the screen's width (charts, wide tables) instead of a form's. */
  wide?: boolean;
}

interface AddressTabsProps<K extends string> {
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (tab: K) => void;
}

export function AddressTabs<K extends string>({ label, tabs, selected, onSelect }: AddressTabsProps<K>) {
  return (
    <Tabs selectedKey={selected} onSelectionChange={(key) => onSelect(key as K)}>
      <TabList aria-label={label} className="tab-list">
        {tabs.map((tab) => (
          <Tab key={tab.id} id={tab.id} className="tab">
            {tab.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((tab) => (
        <TabPanel key={tab.id} id={tab.id} className={tab.wide ? 'tab-panel wide' : 'tab-panel'}>
          {tab.panel}
        </TabPanel>
      ))}
    </Tabs>
  );
}
