// Every id the extension contributes in package.json, in one place.

export const Commands = {
  showReview: 'redline.showReview',
  copyReview: 'redline.copyReview',
  clearReview: 'redline.clearReview',
  showConnectionInfo: 'redline.showConnectionInfo',
  connectAssistant: 'redline.connectAssistant',
  removeFromAssistant: 'redline.removeFromAssistant',
  openEarlierReview: 'redline.openEarlierReview',
  compareWithPrevious: 'redline.compareWithPrevious',
  rotateToken: 'redline.rotateToken',
  publishReview: 'redline.publishReview',
  exportReview: 'redline.exportReview',
  openSarifAsReview: 'redline.openSarifAsReview',
  showSampleReview: 'redline.showSampleReview',
} as const;
export type CommandName = keyof typeof Commands;

/** The actions on a finding: in its comment thread, its quick fixes, and the panel. Not in the palette. */
export const FindingCommands = {
  reply: 'redline.finding.reply',
  resolve: 'redline.finding.resolve',
  accept: 'redline.finding.accept',
  wontFix: 'redline.finding.wontFix',
  reopen: 'redline.finding.reopen',
  showInPanel: 'redline.finding.showInPanel',
  replyTo: 'redline.finding.replyTo',
  resolveById: 'redline.finding.resolveById',
  askToFix: 'redline.finding.askToFix',
} as const;
export type FindingCommandName = keyof typeof FindingCommands;
/** Walking a review's findings from the keyboard (findingsFeature.ts). */
export const NavigationCommands = {
  nextFinding: 'redline.nextFinding',
  previousFinding: 'redline.previousFinding',
} as const;
/** Set while the review shown has findings: the keybindings of Next Finding and Previous Finding. */
export const HAS_FINDINGS_CONTEXT = 'redline.hasFindings';

/** The Activity view of recent tool calls and the bridge's status item (extension/src/activity/). */
export const ActivityCommands = {
  showActivity: 'redline.showActivity',
  clearActivity: 'redline.clearActivity',
  copyCorrelationId: 'redline.copyCorrelationId',
} as const;
export const ACTIVITY_VIEW = 'redline.activity';
export const ACTIVITY_VIEW_CONTAINER = 'redline-activity';

export const Settings = {
  section: 'redline',
  historySize: 'historySize',
  requestTimeoutMs: 'requestTimeoutMs',
} as const;

export const DEFAULT_HISTORY_SIZE = 20;

/** The sample review Redline ships (extension/sample/), as paths inside the extension. */
export const SampleReview = {
  /** Its tab in the panel: the same name as npm start's presenter, so both fill one tab. */
  assistant: 'Sample review',
  title: 'Sample review',
  markdown: ['extension', 'sample', 'review.md'],
  /** The files it reviews: its references resolve here. */
  workspace: ['extension', 'sample', 'workspace'],
} as const;
