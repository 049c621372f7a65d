import cluster from 'node:cluster';
import type { ReportRegistry } from '../reports/registry';
import type { MenuStore } from '../meta/menu-store';
import { MENU_FILE } from '../meta/menu-store';
import { WORKER_INDEX_ENV } from '../process/supervisor';
import { PortalFileEvents } from './file-events';
import type { AuditTrail } from './trail';

/**
 * Records portal files loaded, changed and refused after every load of the definitions and of the menu. With
 * several server processes only worker #1 records (they all load the same files). Returns what to call when a
 * menu.json is refused (the menu store announces only accepted ones).
 */
export function auditPortalFiles(deps: { rootDir: string; registry: ReportRegistry; menuStore: MenuStore; audit: AuditTrail }): () => void {
  const { rootDir, registry, menuStore, audit } = deps;
  if (cluster.isWorker && process.env[WORKER_INDEX_ENV] !== '1') return () => undefined;
  const events = new PortalFileEvents(rootDir, (e) => audit.record(e));
  let pending = false;
  const check = (): void => {
    if (pending) return;
    pending = true;
    // Once per load, after every listener and log line of it.
    queueMicrotask(() => {
      pending = false;
      const refused = new Map<string, string>();
      for (const e of registry.unavailable().values()) refused.set(e.file, `${e.pointer}: ${e.reason}`);
      const menuProblem = menuStore.lastProblems()[0];
      if (menuProblem) refused.set(MENU_FILE, `${menuProblem.pointer}: ${menuProblem.reason}`);
      events.check(refused);
    });
  };
  registry.onLoad(check);
  menuStore.onReload(check);
  return check;
}
