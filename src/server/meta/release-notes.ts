import { compareVersions, type ReleaseNotes } from '../../shared/release-notes';
import type { FileProblem } from './watched-json';

const FILE = 'docs/release-notes.json';

/** Newest first: versions strictly descending, dates not increasing. */
export function checkReleaseNotes(notes: ReleaseNotes): FileProblem[] {
  const problems: FileProblem[] = [];
  notes.releases.forEach((r, i) => {
    const prev = notes.releases[i - 1];
    if (!prev) return;
    if (compareVersions(prev.version, r.version) <= 0) {
      problems.push({ file: FILE, pointer: `/releases/${i}/version`, reason: `releases must be newest first: ${r.version} comes after ${prev.version}` });
    }
    if (prev.date < r.date) {
      problems.push({ file: FILE, pointer: `/releases/${i}/date`, reason: `release dates must not increase down the list: ${r.date} after ${prev.date}` });
    }
  });
  return problems;
}
