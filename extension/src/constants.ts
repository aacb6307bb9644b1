// Every id the extension contributes in package.json, in one place.

export const Commands = {
  showReview: 'redline.showReview',
  copyReview: 'redline.copyReview',
  clearReview: 'redline.clearReview',
  showConnectionInfo: 'redline.showConnectionInfo',
  connectAssistant: 'redline.connectAssistant',
  openEarlierReview: 'redline.openEarlierReview',
  compareWithPrevious: 'redline.compareWithPrevious',
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

export const Settings = {
  section: 'redline',
  historySize: 'historySize',
  requestTimeoutMs: 'requestTimeoutMs',
} as const;

export const DEFAULT_HISTORY_SIZE = 20;
