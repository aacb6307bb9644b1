// The lines of a pull request a review comment may point at: GitHub accepts a comment only on a
// line inside one of the diff's hunks, on the side it names, and refuses the whole review (422)
// otherwise. Each file's `patch` from the pull request's file list is parsed here; a file without
// one (binary, or too large for GitHub to show) has no line a comment may point at.

/** A run of lines, 1-based and inclusive, on one side of one hunk. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface Hunk {
  /** The new file's lines in the hunk (the RIGHT side); undefined when the hunk only deletes. */
  readonly right?: LineRange;
  /** The old file's lines in the hunk (the LEFT side); undefined when the hunk only adds. */
  readonly left?: LineRange;
}

/** One file of the pull request, as publishing needs it. */
export interface FileDiff {
  /** The path in the pull request's head. */
  readonly path: string;
  /** The path in the base, for a renamed file. */
  readonly previousPath?: string;
  readonly status: string;
  /** Empty when GitHub gave no patch: nothing in the file can be commented on. */
  readonly hunks: readonly Hunk[];
  /** Why no line of the file can take a comment, when none can. */
  readonly uncommentable?: 'no-patch' | 'bad-patch';
}

/** What the pull request's file list gives for one file (the fields read here). */
export interface PullRequestFile {
  readonly filename: string;
  readonly status: string;
  readonly patch?: string;
  readonly previous_filename?: string;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function fileDiffOf(file: PullRequestFile): FileDiff {
  const base = {
    path: file.filename,
    status: file.status,
    ...(file.previous_filename ? { previousPath: file.previous_filename } : {}),
  };
  if (file.patch === undefined || file.patch === '') return { ...base, hunks: [], uncommentable: 'no-patch' };
  const hunks = parsePatch(file.patch);
  return hunks ? { ...base, hunks } : { ...base, hunks: [], uncommentable: 'bad-patch' };
}

/**
 * The hunks of a unified diff's body (GitHub's `patch` has no file header). Undefined when the
 * text is not a diff whose line counts agree with its headers: a comment placed by a misread diff
 * could fail the whole review, so a doubtful file takes none.
 */
export function parsePatch(patch: string): Hunk[] | undefined {
  const lines = patch.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const header = HUNK_HEADER.exec(lines[i]);
    if (!header) return undefined;
    const oldStart = Number(header[1]);
    const oldCount = header[2] === undefined ? 1 : Number(header[2]);
    const newStart = Number(header[3]);
    const newCount = header[4] === undefined ? 1 : Number(header[4]);
    let oldSeen = 0;
    let newSeen = 0;
    i++;
    while (i < lines.length && !lines[i].startsWith('@@')) {
      const mark = lines[i][0];
      if (mark === ' ' || lines[i] === '') {
        // An empty line is a context line whose leading space was trimmed on the way.
        oldSeen++;
        newSeen++;
      } else if (mark === '+') newSeen++;
      else if (mark === '-') oldSeen++;
      else if (mark !== '\\') return undefined; // "\ No newline at end of file" belongs to the line before it
      i++;
    }
    if (oldSeen !== oldCount || newSeen !== newCount) return undefined;
    hunks.push({
      ...(newCount > 0 ? { right: { start: newStart, end: newStart + newCount - 1 } } : {}),
      ...(oldCount > 0 ? { left: { start: oldStart, end: oldStart + oldCount - 1 } } : {}),
    });
  }
  return hunks;
}

/** The hunk whose RIGHT side holds every line of start..end, if one does. */
export function rightHunkHolding(diff: FileDiff, start: number, end: number): Hunk | undefined {
  return diff.hunks.find((hunk) => hunk.right !== undefined && hunk.right.start <= start && end <= hunk.right.end);
}
