/**
 * Tabs (the WAI-ARIA tabs pattern, automatic activation): one tab stop for the tab list, Left and
 * Right arrows move between tabs and show each one's panel (wrapping at the ends), Home and End go
 * to the first and last; Tab then moves into the shown panel. Controlled (`selected` +
 * `onSelect`) or not (`defaultSelected`).
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps {
  /** what the tab list is about, for screen readers */
  label: string;
  tabs: readonly TabItem[];
  selected?: string;
  defaultSelected?: string;
  onSelect?(id: string): void;
}

export function Tabs({ label, tabs, selected, defaultSelected, onSelect }: TabsProps) {
  const baseId = useId();
  const [own, setOwn] = useState(defaultSelected ?? tabs[0]?.id);
  const current = selected ?? own;
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const select = (index: number, focus: boolean) => {
    const tab = tabs[index];
    if (!tab) return;
    setOwn(tab.id);
    onSelect?.(tab.id);
    if (focus) buttons.current[index]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === current);
    const last = tabs.length - 1;
    const next = { ArrowRight: index >= last ? 0 : index + 1, ArrowLeft: index <= 0 ? last : index - 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    select(next, true);
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab, index) => {
          const isSelected = tab.id === current;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                buttons.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              className="tab"
              onClick={() => select(index, false)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          // the panel takes a tab stop so a panel without controls can be reached and read
          tabIndex={0}
          hidden={tab.id !== current}
          className="tab-panel"
        >
          {tab.id === current ? tab.content : null}
        </div>
      ))}
    </div>
  );
}
