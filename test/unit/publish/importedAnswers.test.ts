// Replies and states a file brought in, before publishing: counted for the question publishing asks
// (publishCommand.ts asks it), and taken out when the user says so.

import {
  importedAnswersOf,
  importedQuestion,
  withoutImportedAnswers,
} from '../../../extension/src/publish/importedAnswers';
import { finding, reviewOf } from './publishFixtures';

const origin = 'imported from evil.sarif, written by Redline @org/everyone';
const imported = finding('src/a.ts', 2, 'x', {
  state: 'resolved',
  stateOrigin: origin,
  replies: [
    { text: 'Mine.', at: '2026-11-27T07:00:00.000Z' },
    { text: 'I approve.', at: '2031-01-01T00:00:00.000Z', source: 'import', origin },
  ],
});

test('are counted for the question publishing asks, and left out when the user says so', () => {
  const review = reviewOf([imported, finding('src/b.ts', 1, 'y')]);
  const answers = importedAnswersOf(review);
  expect(answers).toEqual({ replies: 1, states: 1, origin });
  expect(importedQuestion(answers)).toContain('1 reply and 1 state in this review were imported from evil.sarif');
  const without = withoutImportedAnswers(review).findings[0];
  expect(without.state).toBe('open');
  expect(without.replies.map((reply) => reply.text)).toEqual(['Mine.']);
  expect(without.stateOrigin).toBeUndefined();
});

test('a review with nothing imported asks nothing', () => {
  expect(importedAnswersOf(reviewOf([finding('src/b.ts', 1, 'y')]))).toEqual({ replies: 0, states: 0 });
});
