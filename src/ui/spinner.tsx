/** A busy indicator with a text label for assistive technology (the mark itself is decorative). */
export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner" role="status">
      <span className="spinner-mark" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
