// What every Redline prompt teaches the assistant: how to write references that become links, and
// how to present a review in VS Code as it goes. One text, so the prompts never disagree.

import { FINDING_SEVERITIES } from '../../../shared/findingTerms';

export const REVIEW_GUIDE = [
  'How to present it:',
  '- Show your review in the user\'s VS Code with the present-review tool, not in the chat. Call it first with mode "replace", a short title and a summary, ' +
    'then add each finding as soon as you have it with mode "append", so the user reads while you work.',
  '- To revise a section you already presented, call present-review with mode "update-section" and the heading\'s text as "section".',
  '- Write every code reference as path:line (src/auth.ts:42), path:start-end (src/auth.ts:40-55) or path#L40-L55, relative to the ' +
    'workspace or absolute. Each becomes a link that opens the file at that line, so never leave a location without one.',
  `- Make each finding its own list item whose first reference is the code it is about, starting with a severity label: ${FINDING_SEVERITIES.map((s) => `"${s}:"`).join(', ')}. ` +
    'Findings become comment threads in the code, where the user answers them.',
  '- present-review lists references that point at nothing: fix them with "update-section".',
  '- When you are done, call await-review-feedback to hear what the user decided, and act on it.',
].join('\n');
