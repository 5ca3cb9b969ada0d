/**
 * The toast store's clock (src/lib/notify.ts): a toast leaves after its time, which stands still
 * while the pointer is over it or the focus is in it and runs on with what was left once neither
 * holds it (WCAG 2.2.1 timing adjustable).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts, holdToast, pushToast, releaseToast } from '../../src/lib/notify.ts';

const titles = () => getToasts().map((t) => t.title);

describe('toast clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    clearToasts();
  });
  afterEach(() => {
    clearToasts();
    vi.useRealTimers();
  });

  it('leaves after its time', () => {
    pushToast({ title: 'Support replied', timeoutMs: 10_000 });
    vi.advanceTimersByTime(9_999);
    expect(titles()).toEqual(['Support replied']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it('stands still while held and runs on with what was left', () => {
    pushToast({ title: 'Support replied', timeoutMs: 10_000 });
    const id = getToasts()[0]!.id;
    vi.advanceTimersByTime(4_000);
    holdToast(id, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(titles()).toEqual(['Support replied']);
    releaseToast(id, 'pointer');
    vi.advanceTimersByTime(5_999);
    expect(titles()).toEqual(['Support replied']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it('is held until both the pointer and the focus have left', () => {
    pushToast({ title: 'Batch partly paid', timeoutMs: 10_000 });
    const id = getToasts()[0]!.id;
    holdToast(id, 'pointer');
    holdToast(id, 'focus');
    releaseToast(id, 'pointer');
    vi.advanceTimersByTime(30_000);
    expect(titles()).toEqual(['Batch partly paid']);
    releaseToast(id, 'focus');
    vi.advanceTimersByTime(10_000);
    expect(titles()).toEqual([]);
  });

  it('keeps at least a second after a hold that outlasted its time', () => {
    pushToast({ title: 'Contract active', timeoutMs: 2_000 });
    const id = getToasts()[0]!.id;
    vi.advanceTimersByTime(1_990);
    holdToast(id, 'focus');
    releaseToast(id, 'focus');
    vi.advanceTimersByTime(999);
    expect(titles()).toEqual(['Contract active']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });
});
