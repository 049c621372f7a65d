import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './game.css';
import {
  createGame,
  DELTAS,
  exitGame,
  isOpen,
  keyAction,
  MAX_WIDTH,
  overlayText,
  resume,
  steer,
  tick,
  TILE,
  togglePause,
  type GameState,
} from './rules';

export interface FooterGameProps {
  /** Back to Footer: the footer shows its credits again (best score is forgotten). */
  onExit(): void;
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

function draw(ctx: CanvasRenderingContext2D, s: GameState, canvas: HTMLCanvasElement): void {
  const wall = cssVar(canvas, '--primary-color', '#4f46e5');
  const bg = cssVar(canvas, '--surface-ground', '#f8f9fa');
  const fg = cssVar(canvas, '--text-color', '#333');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (let y = 0; y < s.rows; y++) {
    for (let x = 0; x < s.cols; x++) {
      const i = y * s.cols + x;
      if (s.walls[i]) {
        ctx.fillStyle = wall;
        ctx.fillRect(x * TILE + 1, y * TILE + 1, TILE - 2, TILE - 2);
      } else if (s.pellets[i]) {
        ctx.fillStyle = fg;
        ctx.beginPath();
        ctx.arc(x * TILE + TILE / 2, y * TILE + TILE / 2, 1.6, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
  const at = (m: GameState['player']): [number, number] => {
    let { x, y } = m.pos;
    if (m.dir && isOpen(s, { x: x + DELTAS[m.dir].x, y: y + DELTAS[m.dir].y })) {
      x += DELTAS[m.dir].x * m.progress;
      y += DELTAS[m.dir].y * m.progress;
    }
    return [x * TILE + TILE / 2, y * TILE + TILE / 2];
  };
  const [px, py] = at(s.player);
  ctx.fillStyle = '#f5b700';
  ctx.beginPath();
  ctx.moveTo(px, py);
  ctx.arc(px, py, TILE / 2 - 1, 0.25 * Math.PI, 1.75 * Math.PI);
  ctx.closePath();
  ctx.fill();
  const colours = ['#e53935', '#00acc1'];
  s.ghosts.forEach((g, k) => {
    const [gx, gy] = at(g);
    ctx.fillStyle = colours[k % colours.length] ?? '#e53935';
    ctx.beginPath();
    ctx.arc(gx, gy - 1, TILE / 2 - 1, Math.PI, 0);
    ctx.lineTo(gx + TILE / 2 - 1, gy + TILE / 2 - 1);
    ctx.lineTo(gx - TILE / 2 + 1, gy + TILE / 2 - 1);
    ctx.closePath();
    ctx.fill();
  });
}

/** The footer maze game: canvas, Score / Best / Lives, Pause/Resume and Back to Footer. */
/** The overlay texts of the rules (the spec's English) and their keys in the interface language. */
const OVERLAY_KEYS: Record<string, 'game.paused' | 'game.ready' | 'game.levelUp' | 'game.ouch' | 'game.gameOver'> = {
  Paused: 'game.paused',
  'Get Ready!': 'game.ready',
  'Level Up!': 'game.levelUp',
  'Ouch! Ready...': 'game.ouch',
  'Game Over! Restarting...': 'game.gameOver',
};

export function FooterGame({ onExit }: FooterGameProps) {
  const { t } = useTranslation();
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [game, setGame] = useState<GameState>(() => createGame(MAX_WIDTH, (Date.now() & 0x7fffffff) || 1));
  const gameRef = useRef(game);
  gameRef.current = game;

  // Fit the maze to the footer's width (at most 760 px) once, when the game opens.
  useLayoutEffect(() => {
    const width = wrapRef.current?.clientWidth ?? MAX_WIDTH;
    setGame((g) => (g.cols * TILE > width ? createGame(width, g.seed, g.best) : g));
    canvasRef.current?.focus();
  }, []);

  // Animation loop: the rules advance by the elapsed time; the canvas draws the state.
  useEffect(() => {
    let frame = 0;
    let last = performance.now();
    const loop = (now: number): void => {
      const dt = now - last;
      last = now;
      const cur = gameRef.current;
      const next = tick(cur, dt);
      if (next !== cur) {
        gameRef.current = next;
        setGame(next);
      }
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(frame);
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (canvas && ctx) draw(ctx, game, canvas);
  }, [game]);

  const onKeyDown = useCallback((e: KeyboardEvent) => {
    const action = keyAction(e.key);
    if (!action) return;
    e.preventDefault(); // arrows must not scroll the page while playing
    setGame((g) => (action === 'pause' ? togglePause(g) : steer(g, action)));
  }, []);

  const overlay = overlayText(game);
  const text = overlay === null ? null : t(OVERLAY_KEYS[overlay] ?? 'game.paused');
  const paused = game.status === 'paused';

  return (
    <div className="footer-game" ref={wrapRef} onKeyDown={onKeyDown}>
      <div className="footer-game-bar">
        <span>
          {t('game.score')} <strong data-testid="game-score">{game.score}</strong>
        </span>
        <span>
          {t('game.best')} <strong data-testid="game-best">{game.best}</strong>
        </span>
        <span>
          {t('game.lives')} <strong data-testid="game-lives">{game.lives}</strong>
        </span>
        <button type="button" className="p-button p-button-sm p-button-outlined" onClick={() => setGame(togglePause)}>
          {paused ? t('game.resume') : t('game.pause')}
        </button>
        <button
          type="button"
          className="p-button p-button-sm p-button-text"
          onClick={() => {
            setGame(exitGame);
            onExit();
          }}
        >
          {t('game.back')}
        </button>
      </div>
      <div className="footer-game-stage" style={{ width: game.cols * TILE }}>
        <canvas
          ref={canvasRef}
          width={game.cols * TILE}
          height={game.rows * TILE}
          tabIndex={0}
          aria-label={t('game.canvas')}
          onClick={() => setGame(resume)}
        />
        {text && (
          <div className="footer-game-overlay" role="status" aria-live="polite">
            {text}
          </div>
        )}
      </div>
    </div>
  );
}
