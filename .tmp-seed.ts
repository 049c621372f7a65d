import { openDb } from './src/server/db';
import { migrate } from './src/server/db/migrate';
import { ensureSeeded } from './src/server/db/seed';
const db = await openDb({ dataDir: null });
await migrate(db);
const t = performance.now();
await ensureSeeded(db, { scale: 'tiny', today: '2026-03-15', log: () => undefined });
console.log(process.cwd(), 'seed ms', Math.round(performance.now() - t));
await db.close();
