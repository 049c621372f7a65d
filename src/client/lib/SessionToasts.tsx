import { useEffect, useRef } from 'react';
import { Toast } from 'primereact/toast';
import type { QueuedNotice } from './notices';

/**
 * The session's toasts (top right, 6 s). A chunk of its own, loaded with the first notice, so the login screen's
 * first load carries no toast code. Shows each queued notice once and hands the ids back.
 */
export default function SessionToasts({ queue, onShown }: { queue: QueuedNotice[]; onShown(ids: number[]): void }) {
  const toast = useRef<Toast>(null);
  const shown = useRef(new Set<number>()); // StrictMode runs the effect twice in development
  useEffect(() => {
    const fresh = queue.filter((n) => !shown.current.has(n.id));
    if (fresh.length === 0 || !toast.current) return;
    fresh.forEach((n) => shown.current.add(n.id));
    toast.current.show(fresh.map((n) => ({ severity: n.severity, summary: n.text, life: 6000 })));
    onShown(fresh.map((n) => n.id));
  }, [queue, onShown]);
  return <Toast ref={toast} position="top-right" />;
}
