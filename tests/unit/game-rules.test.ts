import { describe, expect, it } from 'vitest';
import {
  buildWalls,
  colsFor,
  createGame,
  exitGame,
  GHOST_COUNT,
  GHOST_TILES_PER_SECOND,
  idx,
  isOpen,
  keyAction,
  LEVEL_UP_MS,
  LIVES,
  MAX_WIDTH,
  MAZE_HEIGHT,
  OUCH_DELAY_MS,
  overlayText,
  pause,
  PELLET_POINTS,
  PLAYER_TILES_PER_SECOND,
  playerStart,
  READY_MS,
  RESTART_DELAY_MS,
  resume,
  steer,
  tick,
  TILE,
  togglePause,
  type GameState,
  type Pos,
} from '../../src/client/features/game/rules';

/** Runs the game for ms in 16 ms frames. */
function runFor(s: GameState, ms: number): GameState {
  let t = 0;
  while (t < ms) {
    const dt = Math.min(16, ms - t);
    s = tick(s, dt);
    t += dt;
  }
  return s;
}
const playing = (s: GameState): GameState => runFor(s, READY_MS);
/** Ghosts parked far away in a corner (never moving: 0 speed is simulated by putting them back). */
const park = (s: GameState): GameState => ({ ...s, ghosts: s.ghosts.map(() => ({ pos: { x: 1, y: 1 }, dir: null, progress: 0 })) });

describe('game constants (spec section 9)', () => {
  it('uses every spec constant', () => {
    expect(TILE).toBe(12);
    expect(MAX_WIDTH).toBe(760);
    expect(Math.abs(MAZE_HEIGHT - 200)).toBeLessThanOrEqual(TILE);
    expect(LIVES).toBe(3);
    expect(PELLET_POINTS).toBe(10);
    expect(PLAYER_TILES_PER_SECOND).toBe(6);
    expect(GHOST_TILES_PER_SECOND).toBeCloseTo(5.4);
    expect(GHOST_COUNT).toBe(2);
    expect([OUCH_DELAY_MS, RESTART_DELAY_MS, LEVEL_UP_MS]).toEqual([900, 1200, 800]);
  });

  it('is at most 760 px wide and fits narrower footers', () => {
    expect(colsFor(2000) * TILE).toBeLessThanOrEqual(760);
    expect(colsFor(400) * TILE).toBeLessThanOrEqual(400);
    const g = createGame(760);
    expect(g.ghosts).toHaveLength(2);
    expect(g.lives).toBe(3);
    expect(g.rows * TILE).toBe(MAZE_HEIGHT);
  });
});

describe('maze', () => {
  it('has a wall border and every open cell reachable from the player start', () => {
    const cols = colsFor(760);
    const rows = 17;
    const s = { cols, rows, walls: buildWalls(cols, rows) };
    for (let x = 0; x < cols; x++) expect(isOpen(s, { x, y: 0 }) || isOpen(s, { x, y: rows - 1 })).toBe(false);
    const start = playerStart(cols, rows);
    const seen = new Set([idx(s, start)]);
    const queue: Pos[] = [start];
    while (queue.length) {
      const p = queue.shift()!;
      for (const d of [{ x: 1, y: 0 }, { x: -1, y: 0 }, { x: 0, y: 1 }, { x: 0, y: -1 }]) {
        const n = { x: p.x + d.x, y: p.y + d.y };
        if (isOpen(s, n) && !seen.has(idx(s, n))) {
          seen.add(idx(s, n));
          queue.push(n);
        }
      }
    }
    expect(seen.size).toBe(s.walls.filter((w) => !w).length);
    expect(s.walls.filter((w) => !w).length).toBeGreaterThan(300);
  });
});

describe('game states', () => {
  it('opens running with Get Ready!, pauses, resumes, exits', () => {
    let s = createGame(760);
    expect(s.status).toBe('running');
    expect(overlayText(s)).toBe('Get Ready!');
    s = playing(s);
    expect(overlayText(s)).toBeNull();
    s = pause(s);
    expect(s.status).toBe('paused');
    expect(overlayText(s)).toBe('Paused');
    expect(tick(s, 50)).toBe(s); // nothing moves while paused
    expect(steer(s, 'left')).toBe(s);
    s = resume(s);
    expect(s.status).toBe('running');
    expect(togglePause(togglePause(s)).status).toBe('running');
    expect(exitGame(s).status).toBe('exited');
    expect(tick(exitGame(s), 50).status).toBe('exited');
  });

  it('maps arrows, WASD and P', () => {
    expect(['ArrowUp', 'w', 'ArrowDown', 'S', 'ArrowLeft', 'a', 'ArrowRight', 'D', 'p', 'P', 'x'].map(keyAction)).toEqual([
      'up', 'up', 'down', 'down', 'left', 'left', 'right', 'right', 'pause', 'pause', null,
    ]);
  });
});

describe('movement and scoring', () => {
  it('moves the player 6 tiles per second and scores 10 per pellet', () => {
    let s = park(playing(createGame(760, 7)));
    const start = s.player.pos;
    s = steer(s, 'left');
    // keep ghosts parked: run in small slices and park them again
    for (let i = 0; i < 10; i++) s = park(runFor(s, 100));
    expect(start.x - s.player.pos.x).toBe(6);
    expect(s.score).toBe(60);
    expect(s.best).toBe(60);
    expect(s.pelletsLeft).toBe(createGame(760, 7).pelletsLeft - 6);
  });

  it('moves ghosts at 0.9 of the player speed (10 tiles in 2 s where the player makes 12)', () => {
    let s = playing(createGame(760, 3));
    const moved = [0, 0];
    for (let i = 0; i < 20; i++) {
      const before = s.ghosts.map((g) => g.pos);
      s = tick(s, 100);
      s.ghosts.forEach((g, k) => (moved[k]! += Math.abs(g.pos.x - before[k]!.x) + Math.abs(g.pos.y - before[k]!.y)));
    }
    expect(s.phase).toBe('playing');
    expect(moved).toEqual([10, 10]);
  });

  it('a ghost hit takes a life, zeroes the score, says Ouch! Ready... and resets positions after 900 ms', () => {
    let s = park(playing(createGame(760, 5)));
    s = { ...s, score: 120, best: 150 };
    const p = s.player.pos;
    s = { ...s, ghosts: [{ pos: { x: p.x + 1, y: p.y }, dir: 'left', progress: 0.95 }, s.ghosts[1]!] };
    s = tick(s, 16);
    expect(s.phase).toBe('ouch');
    expect(overlayText(s)).toBe('Ouch! Ready...');
    expect(s.lives).toBe(2);
    expect(s.score).toBe(0);
    expect(s.best).toBe(150);
    s = runFor(s, OUCH_DELAY_MS - 20);
    expect(s.phase).toBe('ouch');
    s = runFor(s, 40);
    expect(s.phase).toBe('playing');
    expect(s.player.pos).toEqual(playerStart(s.cols, s.rows));
    expect(s.ghosts.map((g) => g.pos)).toEqual([{ x: 1, y: 1 }, { x: s.cols - 2, y: 1 }]);
  });

  it('the last life lost says Game Over! Restarting... and restarts after 1200 ms keeping the best', () => {
    let s = park(playing(createGame(760, 5)));
    s = { ...s, lives: 1, best: 300, pelletsLeft: 10 };
    const p = s.player.pos;
    s = { ...s, ghosts: [{ pos: p, dir: null, progress: 0 }, s.ghosts[1]!] };
    s = tick(s, 16);
    expect(s.phase).toBe('gameover');
    expect(overlayText(s)).toBe('Game Over! Restarting...');
    s = runFor(s, RESTART_DELAY_MS - 20);
    expect(s.phase).toBe('gameover');
    s = runFor(s, 40);
    expect(s.lives).toBe(3);
    expect(s.score).toBe(0);
    expect(s.best).toBe(300);
    expect(s.pelletsLeft).toBe(createGame(760).pelletsLeft);
    expect(overlayText(s)).toBe('Get Ready!');
  });

  it('clearing all pellets refills them and shows Level Up! for 800 ms', () => {
    let s = park(playing(createGame(760, 9)));
    const p = s.player.pos;
    const target = { x: p.x - 1, y: p.y };
    const pellets = s.pellets.map((_, i) => i === idx(s, target));
    s = steer({ ...s, pellets, pelletsLeft: 1 }, 'left');
    s = park(runFor(s, 200));
    expect(s.phase).toBe('levelup');
    expect(overlayText(s)).toBe('Level Up!');
    expect(s.level).toBe(2);
    expect(s.pelletsLeft).toBe(createGame(760).pelletsLeft);
    s = runFor(s, LEVEL_UP_MS + 20);
    expect(s.phase).toBe('playing');
  });

  it('a new game (the game reopened) forgets the best score', () => {
    expect(createGame(760).best).toBe(0);
  });
});
