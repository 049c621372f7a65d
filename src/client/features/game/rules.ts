/**
 * The footer maze game's rules (spec sections 2, 3, 4, 9), pure: no canvas, no timers, no DOM. The component feeds
 * it elapsed time and keys and draws the state it returns. Randomness comes from a seed kept in the state.
 */

export const TILE = 12;
export const MAX_WIDTH = 760;
/** "About 200 px" tall: 17 rows of 12 px (odd, so the maze has a wall border). */
export const MAZE_ROWS = 17;
export const MAZE_HEIGHT = MAZE_ROWS * TILE;
export const LIVES = 3;
export const PELLET_POINTS = 10;
export const PLAYER_TILES_PER_SECOND = 6;
export const GHOST_SPEED_FACTOR = 0.9;
export const GHOST_TILES_PER_SECOND = PLAYER_TILES_PER_SECOND * GHOST_SPEED_FACTOR;
export const GHOST_COUNT = 2;
export const OUCH_DELAY_MS = 900;
export const RESTART_DELAY_MS = 1200;
export const LEVEL_UP_MS = 800;
/** How long 'Get Ready!' shows before play (not fixed by the spec). */
export const READY_MS = 1000;
/** Longest time step applied at once (a background tab must not teleport anything). */
export const MAX_STEP_MS = 100;
const MIN_COLS = 15;

export type GameStatus = 'hidden' | 'running' | 'paused' | 'exited';
export type Phase = 'ready' | 'playing' | 'ouch' | 'gameover' | 'levelup';
export type Dir = 'up' | 'down' | 'left' | 'right';

export interface Pos {
  x: number;
  y: number;
}

export interface Mover {
  pos: Pos;
  dir: Dir | null;
  /** Fraction of the way to the next tile. */
  progress: number;
}

export interface GameState {
  status: GameStatus;
  phase: Phase;
  /** Time left in the current timed phase (ready, ouch, gameover, levelup). */
  phaseMs: number;
  cols: number;
  rows: number;
  /** Row-major, true = wall. */
  walls: readonly boolean[];
  /** Row-major, true = pellet. */
  pellets: readonly boolean[];
  pelletsLeft: number;
  player: Mover;
  /** Direction the player asked for; taken at the next tile where it is open. */
  wanted: Dir | null;
  ghosts: Mover[];
  score: number;
  best: number;
  lives: number;
  level: number;
  seed: number;
}

export const DELTAS: Record<Dir, Pos> = { up: { x: 0, y: -1 }, down: { x: 0, y: 1 }, left: { x: -1, y: 0 }, right: { x: 1, y: 0 } };
const REVERSE: Record<Dir, Dir> = { up: 'down', down: 'up', left: 'right', right: 'left' };
const DIRS: Dir[] = ['up', 'left', 'down', 'right'];

/** Next value of a mulberry32 generator: [0, 1) and the next seed. */
export function random(seed: number): [number, number] {
  const next = (seed + 0x6d2b79f5) | 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, next];
}

/** Columns for a canvas width: at most 760 px, odd so the maze has a border. */
export function colsFor(widthPx: number): number {
  let cols = Math.floor(Math.min(MAX_WIDTH, Math.max(widthPx, MIN_COLS * TILE)) / TILE);
  if (cols % 2 === 0) cols -= 1;
  return Math.max(MIN_COLS, cols);
}

/** A border, a lattice of pillars, and some pillars stretched into short bars; every open cell stays reachable. */
export function buildWalls(cols: number, rows: number): boolean[] {
  const walls: boolean[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const border = x === 0 || y === 0 || x === cols - 1 || y === rows - 1;
      const pillar = x % 2 === 0 && y % 2 === 0;
      // Bars: a pillar's right neighbour on even rows, every third pillar, never next to the border.
      const bar = y % 2 === 0 && x % 2 === 1 && x > 1 && x < cols - 2 && ((x - 1) / 2 + y / 2) % 3 === 0;
      walls.push(border || pillar || bar);
    }
  }
  return walls;
}

export const idx = (s: Pick<GameState, 'cols'>, p: Pos): number => p.y * s.cols + p.x;

export function isOpen(s: Pick<GameState, 'cols' | 'rows' | 'walls'>, p: Pos): boolean {
  return p.x >= 0 && p.y >= 0 && p.x < s.cols && p.y < s.rows && s.walls[p.y * s.cols + p.x] === false;
}

const add = (p: Pos, d: Dir): Pos => ({ x: p.x + DELTAS[d].x, y: p.y + DELTAS[d].y });
const same = (a: Pos, b: Pos): boolean => a.x === b.x && a.y === b.y;

export function playerStart(cols: number, rows: number): Pos {
  let x = Math.floor(cols / 2);
  if (x % 2 === 0) x -= 1;
  return { x, y: rows - 2 };
}

export function ghostStarts(cols: number): Pos[] {
  return [
    { x: 1, y: 1 },
    { x: cols - 2, y: 1 },
  ].slice(0, GHOST_COUNT);
}

function fillPellets(cols: number, rows: number, walls: readonly boolean[]): { pellets: boolean[]; left: number } {
  const start = playerStart(cols, rows);
  const pellets = walls.map((w, i) => !w && i !== start.y * cols + start.x);
  return { pellets, left: pellets.filter(Boolean).length };
}

function resetPositions(s: GameState): Pick<GameState, 'player' | 'ghosts' | 'wanted'> {
  return {
    player: { pos: playerStart(s.cols, s.rows), dir: null, progress: 0 },
    wanted: null,
    ghosts: ghostStarts(s.cols).map((pos) => ({ pos, dir: null, progress: 0 })),
  };
}

/** A new game, opened and running, starting with 'Get Ready!'. */
export function createGame(widthPx: number, seed = 1, best = 0): GameState {
  const cols = colsFor(widthPx);
  const rows = MAZE_ROWS;
  const walls = buildWalls(cols, rows);
  const { pellets, left } = fillPellets(cols, rows, walls);
  const base: GameState = {
    status: 'running',
    phase: 'ready',
    phaseMs: READY_MS,
    cols,
    rows,
    walls,
    pellets,
    pelletsLeft: left,
    player: { pos: { x: 0, y: 0 }, dir: null, progress: 0 },
    wanted: null,
    ghosts: [],
    score: 0,
    best,
    lives: LIVES,
    level: 1,
    seed,
  };
  return { ...base, ...resetPositions(base) };
}

export function pause(s: GameState): GameState {
  return s.status === 'running' ? { ...s, status: 'paused' } : s;
}
export function resume(s: GameState): GameState {
  return s.status === 'paused' ? { ...s, status: 'running' } : s;
}
export function togglePause(s: GameState): GameState {
  return s.status === 'paused' ? resume(s) : pause(s);
}
export function exitGame(s: GameState): GameState {
  return { ...s, status: 'exited' };
}
export function steer(s: GameState, dir: Dir): GameState {
  return s.status === 'running' ? { ...s, wanted: dir } : s;
}

/** Keyboard: arrows or WASD move, P pauses or resumes. */
export function keyAction(key: string): Dir | 'pause' | null {
  switch (key) {
    case 'ArrowUp':
    case 'w':
    case 'W':
      return 'up';
    case 'ArrowDown':
    case 's':
    case 'S':
      return 'down';
    case 'ArrowLeft':
    case 'a':
    case 'A':
      return 'left';
    case 'ArrowRight':
    case 'd':
    case 'D':
      return 'right';
    case 'p':
    case 'P':
      return 'pause';
    default:
      return null;
  }
}

/** The overlay text shown over the maze, if any. */
export function overlayText(s: GameState): string | null {
  if (s.status === 'paused') return 'Paused';
  switch (s.phase) {
    case 'ready':
      return 'Get Ready!';
    case 'levelup':
      return 'Level Up!';
    case 'ouch':
      return 'Ouch! Ready...';
    case 'gameover':
      return 'Game Over! Restarting...';
    case 'playing':
      return null;
  }
}

/** Moves a mover by whole tiles as its progress allows; choose() picks the direction at each tile. */
function advance(s: GameState, m: Mover, tilesPerSecond: number, dtMs: number, choose: (at: Pos, dir: Dir | null) => Dir | null): Mover {
  let { pos, dir, progress } = m;
  progress += (tilesPerSecond * dtMs) / 1000;
  while (progress >= 1 - 1e-9) {
    const d = choose(pos, dir);
    if (d === null || !isOpen(s, add(pos, d))) {
      progress = 0; // blocked: wait at this tile
      break;
    }
    pos = add(pos, d);
    dir = d;
    progress = Math.max(0, progress - 1);
  }
  if (dir !== null && !isOpen(s, add(pos, dir))) progress = 0;
  return { pos, dir, progress };
}

function ghostChoice(s: GameState, target: Pos, seedRef: { seed: number }) {
  return (at: Pos, dir: Dir | null): Dir | null => {
    let options = DIRS.filter((d) => isOpen(s, add(at, d)) && (dir === null || d !== REVERSE[dir]));
    if (options.length === 0) options = DIRS.filter((d) => isOpen(s, add(at, d)));
    if (options.length === 0) return null;
    const [r1, s1] = random(seedRef.seed);
    const [r2, s2] = random(s1);
    seedRef.seed = s2;
    if (r1 < 0.7) {
      const dist = (d: Dir): number => {
        const p = add(at, d);
        return Math.abs(p.x - target.x) + Math.abs(p.y - target.y);
      };
      return options.reduce((best, d) => (dist(d) < dist(best) ? d : best));
    }
    return options[Math.floor(r2 * options.length)] ?? null;
  };
}

function hit(s: GameState): GameState {
  const lives = s.lives - 1;
  if (lives <= 0) return { ...s, lives: 0, score: 0, phase: 'gameover', phaseMs: RESTART_DELAY_MS };
  return { ...s, lives, score: 0, phase: 'ouch', phaseMs: OUCH_DELAY_MS };
}

/** One time step of a running game: timers of the timed phases, movement, pellets, ghosts. */
export function tick(s: GameState, dtMs: number): GameState {
  if (s.status !== 'running') return s;
  const dt = Math.min(Math.max(dtMs, 0), MAX_STEP_MS);

  if (s.phase !== 'playing') {
    const phaseMs = s.phaseMs - dt;
    if (phaseMs > 0) return { ...s, phaseMs };
    switch (s.phase) {
      case 'ready':
        return { ...s, phase: 'playing', phaseMs: 0 };
      case 'ouch':
        return { ...s, ...resetPositions(s), phase: 'playing', phaseMs: 0 };
      case 'levelup':
        return { ...s, ...resetPositions(s), phase: 'playing', phaseMs: 0 };
      case 'gameover': {
        const fresh = createGame(s.cols * TILE, s.seed, s.best);
        return { ...fresh, phase: 'ready', phaseMs: READY_MS };
      }
    }
  }

  const before = s.player.pos;
  const player = advance(s, s.player, PLAYER_TILES_PER_SECOND, dt, (at, dir) => {
    if (s.wanted && isOpen(s, add(at, s.wanted))) return s.wanted;
    return dir;
  });
  let { pellets, pelletsLeft, score, best } = s;
  const i = idx(s, player.pos);
  if (pellets[i]) {
    const copy = pellets.slice();
    copy[i] = false;
    pellets = copy;
    pelletsLeft -= 1;
    score += PELLET_POINTS;
    best = Math.max(best, score);
  }
  const seedRef = { seed: s.seed };
  const ghostsBefore = s.ghosts.map((g) => g.pos);
  const ghosts = s.ghosts.map((g) => advance(s, g, GHOST_TILES_PER_SECOND, dt, ghostChoice(s, player.pos, seedRef)));
  const next: GameState = { ...s, player, pellets, pelletsLeft, score, best, ghosts, seed: seedRef.seed };

  const caught = ghosts.some(
    (g, k) => same(g.pos, player.pos) || (same(g.pos, before) && same(ghostsBefore[k] ?? g.pos, player.pos)),
  );
  if (caught) return hit(next);

  if (pelletsLeft === 0) {
    const refill = fillPellets(s.cols, s.rows, s.walls);
    return { ...next, pellets: refill.pellets, pelletsLeft: refill.left, level: s.level + 1, phase: 'levelup', phaseMs: LEVEL_UP_MS };
  }
  return next;
}
