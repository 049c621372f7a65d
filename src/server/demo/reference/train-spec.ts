/** What the catalogue says of one train: the hand-listed trains (trains.ts) and the generated national ones (national.ts). */
export type TrainType = 'RAJDHANI' | 'SHATABDI' | 'DURONTO' | 'VANDE_BHARAT' | 'SUPERFAST' | 'MAIL_EXP';

export interface TrainSpec {
  no: string;
  name: string;
  type: TrainType;
  corridor: string;
  from: string;
  to: string;
  dep: string; // departure from the source, HH:MM
  div: string; // owning division
  days: string; // Monday..Sunday as Y/N
  tier: number;
  /** Coach list used at scale tiny (kept tiny so tests seed in seconds). */
  tinyConsist?: string;
  /** Replaces a corridor end station (e.g. Hazrat Nizamuddin instead of New Delhi). */
  alias?: Record<string, string>;
  consist?: string;
}
