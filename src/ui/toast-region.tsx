import { useLingui } from '@lingui/react/macro';
import { dismissToast, holdToast, releaseToast, useToasts } from '../lib/notify.ts';
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from './icons-core.tsx';

const icons = { error: AlertIcon, success: CheckIcon, info: InfoIcon } as const;

/**
 * The toasts, in a polite live region that is always in the DOM (a region added together with
 * its content is often not announced). Where they appear, and why they cover no content that
 * matters: components.css, "Toasts".
 */
export function ToastRegion() {
  const { t } = useLingui();
  const toasts = useToasts();
  return (
    <section aria-label={t`Notifications`} className="toast-region">
      <ul className="toasts" aria-live="polite" aria-relevant="additions">
        {toasts.map((toast) => {
          const title = toast.title;
          const Icon = icons[toast.tone];
          return (
            // its time stands still while the pointer is over it or the focus in it (notify.ts)
            <li
              key={toast.id}
              className={`toast toast-${toast.tone}`}
              onMouseEnter={() => holdToast(toast.id, 'pointer')}
              onMouseLeave={() => releaseToast(toast.id, 'pointer')}
              onFocus={() => holdToast(toast.id, 'focus')}
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) releaseToast(toast.id, 'focus');
              }}
            >
              <Icon className="toast-icon" />
              <div className="toast-text">
                <p className="toast-title">{toast.title}</p>
                {toast.body ? <p className="toast-body">{toast.body}</p> : null}
                {toast.action ? (
                  <button
                    type="button"
                    className="toast-action"
                    onClick={() => {
                      dismissToast(toast.id);
                      toast.action?.onSelect();
                    }}
                  >
                    {toast.action.label}
                  </button>
                ) : null}
              </div>
              <button type="button" className="toast-close" onClick={() => dismissToast(toast.id)} aria-label={t`Dismiss notification: ${title}`}>
                <CloseIcon />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
