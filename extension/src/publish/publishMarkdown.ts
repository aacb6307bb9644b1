// The text publishing writes to GitHub: a comment per finding and the review's body, each with a
// hidden marker that carries the finding's key, so that publishing again finds what it wrote.
// A finding's text is the assistant's, so nothing in it may pass for a marker.

import type { ExportedFinding } from '../../../shared/exchange/exportedReview';
import type { BodyReason, PublishItem } from './findingPlacement';

export const REVIEW_MARKER = '<!-- redline:review -->';
const SECTION_END = '<!-- /redline:finding -->';
const KEY = '[0-9a-f]{8,64}(?:-\\d{1,5})?';
const COMMENT_MARKER = new RegExp(`\\n<!-- redline:finding (${KEY}) -->\\s*$`);
const SECTION = new RegExp(`<!-- redline:finding (${KEY}) -->\\n([\\s\\S]*?)\\n${escapeRegExp(SECTION_END)}`, 'g');

/** GitHub's limit on a comment's or a review's body, in characters. */
export const MAX_BODY = 65_536;
/** Room kept for the marker, the state and the replies when a finding's own text is cut. */
const MAX_FINDING_TEXT = 40_000;
const MAX_REPLY_TEXT = 2_000;

export function findingMarker(key: string): string {
  return `<!-- redline:finding ${key} -->`;
}

/** The key of the finding a comment was written for, when Redline wrote it. */
export function commentKey(body: string): string | undefined {
  return COMMENT_MARKER.exec(body)?.[1];
}

/** The findings in a review body Redline wrote, by key, with each one's section text. */
export function bodySections(body: string): Map<string, string> {
  const sections = new Map<string, string>();
  if (!body.startsWith(REVIEW_MARKER)) return sections;
  for (const match of body.matchAll(SECTION)) sections.set(match[1], match[0]);
  return sections;
}

/** `body` with the section of `key` replaced by `section` (a whole section, markers included). */
export function replaceSection(body: string, key: string, section: string): string {
  const old = bodySections(body).get(key);
  return old === undefined ? body : body.replace(old, () => section);
}

/** A finding as a review comment on its lines. */
export function commentText(item: PublishItem): string {
  return `${findingText(item.finding)}\n\n${findingMarker(item.key)}`;
}

export interface SectionLink {
  readonly url: string;
  readonly label: string;
}

/** A finding in the review's body: its place as a link, why it is not on a line, and its text. */
export function bodySection(item: PublishItem, reason: BodyReason, link: SectionLink): string {
  const place = `**[${escapeLinkText(link.label)}](${link.url})** · ${REASON_TEXT[reason]}`;
  return `${findingMarker(item.key)}\n${place}\n\n${findingText(item.finding)}\n${SECTION_END}`;
}

const REASON_TEXT: Record<BodyReason, string> = {
  'outside-diff': 'outside the lines this pull request changes',
  'file-not-changed': 'in a file this pull request does not change',
  'no-patch': 'in a file GitHub shows no diff for (binary or too large)',
  stale: 'the code it pointed at has changed since the review',
  uncommitted: 'in a file with changes that are not in the pull request',
};

const STATE_TEXT: Record<string, string> = {
  resolved: 'Resolved',
  accepted: 'Accepted',
  'wont-fix': "Won't fix",
};

/** The finding's markdown, its state when the user decided, and the user's replies. */
function findingText(finding: ExportedFinding): string {
  const parts = [inert(cut(finding.markdown.trim(), MAX_FINDING_TEXT))];
  const state = STATE_TEXT[finding.state];
  if (state) parts.push(`_${state}._`);
  for (const reply of finding.replies) {
    const text = inert(cut(reply.text.trim(), MAX_REPLY_TEXT)).replace(/\n/g, '\n> ');
    parts.push(`> **Reply** (${reply.at.slice(0, 10)}): ${text}`);
  }
  return parts.join('\n\n');
}

/**
 * The assistant's text made inert on GitHub: an HTML comment opened in it could hide the rest or
 * pass for a marker, and an @mention would notify whoever it names. Code keeps its text: GitHub
 * neither notifies nor hides anything inside it.
 */
export function inert(text: string): string {
  return text
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u2060')))
    .join('')
    .replace(/<!--/g, '&lt;!--');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n\n… (cut at ${max.toLocaleString('en-US')} characters)`;
}

function escapeLinkText(text: string): string {
  return inert(text).replace(/[[\]\\]/g, '\\$&');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
