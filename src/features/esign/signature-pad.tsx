/**
 * The signature pad: a canvas drawn on with a mouse, a finger or a pen (pointer events, captured
 * so a stroke may leave the box), in the 1000 x 300 box of api/esign.ts whatever its size on the
 * screen. Each finished stroke goes to `onStroke` as [x, y] points; the strokes given back are
 * drawn again on resize. A tap makes a dot. `touch-action: none` keeps a finger's stroke from
 * scrolling the page.
 *
 * Labelled (a visible label tied with aria-labelledby, role img: the drawing itself is not
 * operable by keyboard), with a Clear button; the keyboard way to sign is the typed name adopted
 * as the signature, next to it (WCAG 2.5.7). When adopted, the pad shows that name instead.
 */
import { useEffect, useId, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import { SIGNATURE_BOX, SIGNATURE_LIMITS } from '../../../api/esign.ts';
import { Button } from '../../ui/button.tsx';

const INK = '#13245a';

function draw(canvas: HTMLCanvasElement, strokes: readonly number[][][], current: readonly number[][] | null): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const scale = canvas.width / SIGNATURE_BOX.width;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = INK;
  ctx.fillStyle = INK;
  ctx.lineWidth = Math.max(1.5, 6 * scale);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const stroke of current ? [...strokes, current] : strokes) {
    if (stroke.length === 0) continue;
    ctx.beginPath();
    ctx.moveTo(stroke[0]![0]! * scale, stroke[0]![1]! * scale);
    for (const [x, y] of stroke.slice(1)) ctx.lineTo(x! * scale, y! * scale);
    ctx.stroke();
  }
}

export function SignaturePad({
  strokes,
  onStroke,
  onClear,
  adoptedName,
  disabled,
  error,
}: {
  strokes: readonly number[][][];
  onStroke(stroke: number[][]): void;
  onClear(): void;
  /** the typed name adopted as the signature: shown instead of the drawing, and the pad is off */
  adoptedName: string | null;
  disabled?: boolean;
  error?: string;
}) {
  const { t } = useLingui();
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const current = useRef<number[][] | null>(null);
  const strokesRef = useRef(strokes);
  strokesRef.current = strokes;
  const off = disabled || adoptedName !== null;

  // the canvas' pixels follow its size on the screen (sharp on every density); drawn again on resize
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fit = () => {
      const width = Math.max(1, Math.round(canvas.clientWidth * (window.devicePixelRatio || 1)));
      canvas.width = width;
      canvas.height = Math.round((width * SIGNATURE_BOX.height) / SIGNATURE_BOX.width);
      draw(canvas, strokesRef.current, current.current);
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [adoptedName]);

  useEffect(() => {
    if (canvasRef.current) draw(canvasRef.current, strokes, current.current);
  }, [strokes]);

  const pointAt = (e: React.PointerEvent<HTMLCanvasElement>): number[] => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = ((e.clientX - r.left) / Math.max(1, r.width)) * SIGNATURE_BOX.width;
    const y = ((e.clientY - r.top) / Math.max(1, r.height)) * SIGNATURE_BOX.height;
    const clamp = (n: number, max: number) => Math.round(Math.min(max, Math.max(0, n)) * 10) / 10;
    return [clamp(x, SIGNATURE_BOX.width), clamp(y, SIGNATURE_BOX.height)];
  };

  const finish = () => {
    const stroke = current.current;
    current.current = null;
    if (!stroke) return;
    // a tap: a dot (two points a hair apart)
    const points = stroke.length === 1 ? [stroke[0]!, [Math.min(SIGNATURE_BOX.width, stroke[0]![0]! + 1), stroke[0]![1]!]] : stroke;
    onStroke(points.slice(0, SIGNATURE_LIMITS.maxPoints));
  };

  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="signature-pad">
      <span id={labelId} className="field-label">
        {t`Your signature`}
      </span>
      <span id={hintId} className="field-hint">
        {adoptedName !== null ? t`Your typed name is your signature.` : t`Draw your signature in the box with a mouse, a finger or a pen.`}
      </span>
      <div className={['signature-pad-box', off ? 'is-off' : null, error ? 'is-invalid' : null].filter(Boolean).join(' ')}>
        {adoptedName !== null ? (
          <p className="signature-pad-adopted" aria-labelledby={labelId} aria-describedby={hintId}>
            {adoptedName || '\u00a0'}
          </p>
        ) : (
          <canvas
            ref={canvasRef}
            className="signature-pad-canvas"
            role="img"
            aria-labelledby={labelId}
            aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
            aria-invalid={error ? true : undefined}
            onPointerDown={(e) => {
              if (off || (e.pointerType === 'mouse' && e.button !== 0) || strokes.length >= SIGNATURE_LIMITS.maxStrokes) return;
              e.preventDefault();
              e.currentTarget.setPointerCapture?.(e.pointerId);
              current.current = [pointAt(e)];
            }}
            onPointerMove={(e) => {
              const stroke = current.current;
              if (!stroke) return;
              const p = pointAt(e);
              const last = stroke[stroke.length - 1]!;
              // about a pixel's worth apart at most sizes: enough for a smooth line, few points
              if (Math.hypot(p[0]! - last[0]!, p[1]! - last[1]!) < 3 || stroke.length >= SIGNATURE_LIMITS.maxPoints) return;
              stroke.push(p);
              if (canvasRef.current) draw(canvasRef.current, strokesRef.current, stroke);
            }}
            onPointerUp={finish}
            onPointerCancel={finish}
          />
        )}
        <span className="signature-pad-line" aria-hidden="true" />
      </div>
      <div className="signature-pad-footer">
        {error ? (
          <span id={errorId} className="field-error">
            {error}
          </span>
        ) : null}
        <Button variant="secondary" size="sm" onClick={onClear} disabled={off || strokes.length === 0}>
          {t`Clear the signature`}
        </Button>
      </div>
    </div>
  );
}
