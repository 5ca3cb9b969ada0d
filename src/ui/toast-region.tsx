import { useLingui } from '@lingui/react/macro';
import { dismissToast, useToasts } from '../lib/notify.ts';

/**
 * The toasts, in a polite live region that is always in the DOM (a region added together with
 * its content is often not announced).
 */
export function ToastRegion() {
  const { t } = useLingui();
  const toasts = useToasts();
  return (
    <section aria-label={t`Notifications`}>
      <ul className="toasts" aria-live="polite" aria-relevant="additions">
        {toasts.map((toast) => {
          const title = toast.title;
          return (
          <li key={toast.id} className={`toast toast-${toast.tone}`}>
            <div className="toast-text">
              <p className="toast-title">{toast.title}</p>
              {toast.body ? <p className="toast-body">{toast.body}</p> : null}
            </div>
            <button type="button" className="btn btn-link" onClick={() => dismissToast(toast.id)} aria-label={t`Dismiss notification: ${title}`}>
              ×
            </button>
          </li>
          );
        })}
      </ul>
    </section>
  );
}
