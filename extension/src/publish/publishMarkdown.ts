// The text publishing writes to GitHub: a comment per finding and the review's body, each with a
// hidden marker that carries the finding's key, so that publishing again finds what it wrote.
// A finding's text is the assistant's, and a reply or a state may come from an imported file: all of
// it is made inert (inertText.ts), so nothing in it may pass for a marker or notify anyone, and what
// a file brought in says so, in its own words, rather than speaking as the user.

import type { ExportedFinding, ExportedReply } from '../../../shared/exchange/exportedReview';
import { oneLine } from '../../../shared/plainText';
import type { BodyReason, PublishItem } from './findingPlacement';
import { inert } from './inertText';

export { inert };

export const REVIEW_MARKER = '<!-- redline:review -->';
const SECTION_END = '<!-- /redline:finding -->';
const KEY = '[0-9a-f]{8,64}(?:-\\d{1,5}|-[0-9a-f]{10})?';
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

/** The finding's markdown, its state once decided, and its replies; what came from a file says where from. */
function findingText(finding: ExportedFinding): string {
  const parts = [inert(cut(finding.markdown.trim(), MAX_FINDING_TEXT))];
  const state = STATE_TEXT[finding.state];
  if (state)
    parts.push(
      finding.stateOrigin === undefined ? `_${state}._` : `_${state} (${inertWords(finding.stateOrigin, 160)})._`,
    );
  for (const reply of finding.replies) parts.push(replyText(reply));
  return parts.join('\n\n');
}

/** A reply as a quote: the user's, or, from a file, headed with where it came from. */
function replyText(reply: ExportedReply): string {
  const text = inert(cut(reply.text.trim(), MAX_REPLY_TEXT)).replace(/\n/g, '\n> ');
  const day = /^\d{4}-\d{2}-\d{2}/.exec(reply.at)?.[0];
  if (reply.source === 'import')
    return `> **Imported reply** (${inertWords(reply.origin ?? 'imported from a file', 160)}${day === undefined ? '' : `, ${day}`}): ${text}`;
  return `> **Reply**${day === undefined ? '' : ` (${day})`}: ${text}`;
}

/** Words from outside (an assistant's name, a tool's) on one line, as plain text: no markdown of their own, inert. */
export function inertWords(text: string, max: number): string {
  return inert(oneLine(text, max).replace(/[\\`*_[\]<>#|~]/g, '\\$&'));
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
