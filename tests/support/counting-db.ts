import type { Db, Queryable } from '../../src/server/db';

/** A Db that counts the statements sent through it (transactions included): the real database underneath. */
export function countingDb(db: Db): { db: Db; count: () => number; reset: () => void } {
  let n = 0;
  const counted = <Q extends Queryable>(q: Q): Q =>
    new Proxy(q, {
      get(target, prop, receiver) {
        const v: unknown = Reflect.get(target, prop, receiver);
        if (prop === 'query' || prop === 'exec') {
          return (...args: unknown[]) => {
            n += 1;
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        if (prop === 'transaction') {
          return <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(counted(tx)));
        }
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return { db: counted(db), count: () => n, reset: () => void (n = 0) };
}
