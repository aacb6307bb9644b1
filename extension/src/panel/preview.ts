// The first screen of a long review, cut from its markdown so it can be rendered and shown in a
// moment while the whole review (tens of thousands of references, say) is still being rendered:
// for a review the panel shows again (reopened, another tab). One on its way in streams instead.

/** Reviews shorter than this render whole quickly enough that a preview would only flicker. */
export const PREVIEW_MIN_CHARS = 128 * 1024;
/** More lines than any panel shows at once. */
const PREVIEW_LINES = 200;
/** A bound on the preview however long its lines are. */
const PREVIEW_MAX_CHARS = 32 * 1024;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The review's first lines, cut at a line end; inside a code fence, at the last blank line
 * before it, so that the rest of the preview is not swallowed by an open fence. `undefined` for a
 * review short enough to render whole.
 */
export function previewOf(markdown: string): string | undefined {
  if (markdown.length < PREVIEW_MIN_CHARS) return undefined;
  /** The open fence's marker (e.g. "````"), which only a run of the same character as long closes. */
  let fence: string | undefined;
  let lastBlank = -1;
  let at = 0;
  for (let line = 0; line < PREVIEW_LINES && at < PREVIEW_MAX_CHARS; line++) {
    const next = markdown.indexOf('\n', at);
    const end = next === -1 ? markdown.length : next;
    const text = markdown.slice(at, end);
    const marker = FENCE.exec(text)?.[1];
    if (marker && fence === undefined) fence = marker;
    else if (marker && marker[0] === fence![0] && marker.length >= fence!.length) fence = undefined;
    else if (fence === undefined && text.trim() === '') lastBlank = at;
    if (next === -1) return undefined;
    at = next + 1;
  }
  const preview = markdown.slice(0, fence === undefined ? at : Math.max(lastBlank, 0));
  return preview.trim() === '' ? undefined : preview;
}
