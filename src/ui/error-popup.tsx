import { Dialog } from './dialog.tsx';

/** The generic error popup: content comes from errorPopupContent (src/lib/errors.ts). */
export function ErrorPopup({ content, onClose }: { content: { title: string; body: string } | null; onClose(): void }) {
  return (
    <Dialog open={content !== null} title={content?.title ?? ''} onClose={onClose}>
      {content?.body ? <p>{content.body}</p> : null}
    </Dialog>
  );
}
