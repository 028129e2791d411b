import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

export interface RowMenuItem {
  key: string;
  label: string;
}

/**
 * The menu of one alarm row's actions, opened from the row's button: one menu for the whole table, drawn over it at
 * the button (fixed, so the table's scrolling box does not clip it). Arrow keys, Home and End move, Enter chooses,
 * Escape closes and gives the focus back to the button; leaving it (Tab, a click elsewhere, scrolling) closes it.
 */
export function RowActionMenu({ anchor, label, items, onChoose, onClose }: { anchor: HTMLElement; label: string; items: readonly RowMenuItem[]; onChoose: (key: string) => void; onClose: () => void }) {
  const menu = useRef<HTMLUListElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  useLayoutEffect(() => {
    const button = anchor.getBoundingClientRect();
    const box = menu.current?.getBoundingClientRect();
    const width = box?.width ?? 0;
    const height = box?.height ?? 0;
    // Below the button, or above it when the window has no room under it; from its left edge, inside the window.
    const top = button.bottom + height > window.innerHeight ? Math.max(0, button.top - height) : button.bottom;
    setPosition({ top, left: Math.max(0, Math.min(button.left, window.innerWidth - width)) });
  }, [anchor]);

  // Once placed (a hidden element takes no focus), the first item takes the focus.
  const placed = position !== null;
  useEffect(() => {
    if (placed) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [placed]);

  useEffect(() => {
    const close = () => onClose();
    window.addEventListener('resize', close);
    // Scrolling the table (or the page) would leave the menu away from its row.
    window.addEventListener('scroll', close, true);
    return () => {
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', close, true);
    };
  }, [onClose]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const moveTo = (index: number) => entries[(index + entries.length) % entries.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        moveTo(at + 1);
        break;
      case 'ArrowUp':
        moveTo(at - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(entries.length - 1);
        break;
      case 'Escape':
        onClose();
        anchor.focus();
        break;
      case 'Tab':
        onClose();
        return;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <ul
      ref={menu}
      role="menu"
      aria-label={label}
      className="row-menu"
      style={position ? { top: position.top, left: position.left } : { visibility: 'hidden' }}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (next !== anchor && !menu.current?.contains(next)) onClose();
      }}
    >
      {items.map((item) => (
        <li key={item.key} role="none">
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => onChoose(item.key)}>
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}
