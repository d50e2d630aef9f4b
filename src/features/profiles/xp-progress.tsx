import { levelProgress, MAX_LEVEL } from '../../domain/xp.ts';
import './profile-cards.css';

/** XP progress bar: the level and the XP still needed for the next one. */
export function XpProgress({ xp }: { xp: number }) {
  const p = levelProgress(xp);
  const next =
    p.nextLevelXp === null ? `Level ${MAX_LEVEL} is the top level` : `${p.xpToNextLevel} XP to level ${p.level + 1}`;
  return (
    <div className="xp-progress">
      <p className="xp-progress-head">
        <strong>Level {p.level}</strong> <span className="muted">· {p.xp} XP</span>
      </p>
      <div
        className="xp-bar"
        role="progressbar"
        aria-label="Progress to the next level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(p.progress * 100)}
        aria-valuetext={next}
      >
        <span style={{ width: `${Math.round(p.progress * 100)}%` }} />
      </div>
      <p className="muted xp-progress-next">{next}</p>
    </div>
  );
}
