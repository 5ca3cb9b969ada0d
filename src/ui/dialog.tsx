import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from './button.tsx';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children?: ReactNode;
  /** Buttons of the dialog; a Close button is shown when none are given. */
  actions?: ReactNode;
}

/**
 * A modal on the native <dialog>: showModal gives the focus trap, Escape and the inert background.
 * Focus returns to whatever had it before the dialog opened.
 */
export function Dialog({ open, title, onClose, children, actions }: DialogProps) {
  const { t } = useLingui();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom and old browsers lack showModal: fall back to the open attribute.
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute('open', '');
    }
    const focusable = dialog.querySelector<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])');
    focusable?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      else dialog.removeAttribute('open');
      previous?.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} aria-modal="true">
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        {actions ?? (
          <Button variant="primary" onClick={() => onClose()}>
            {t`Close`}
          </Button>
        )}
      </div>
    </dialog>
  );
}
