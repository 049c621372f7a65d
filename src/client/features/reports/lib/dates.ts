/** Today's date in IST ('YYYY-MM-DD'): the railway's day, the same day the server resolves '$today' to. */
export function todayIst(now: Date = new Date()): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}
