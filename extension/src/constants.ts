// Every id the extension contributes in package.json, in one place.

export const Commands = {
  showReview: 'redline.showReview',
  copyReview: 'redline.copyReview',
  clearReview: 'redline.clearReview',
  showConnectionInfo: 'redline.showConnectionInfo',
  connectAssistant: 'redline.connectAssistant',
} as const;
export type CommandName = keyof typeof Commands;

export const Settings = {
  section: 'redline',
  historySize: 'historySize',
  requestTimeoutMs: 'requestTimeoutMs',
} as const;

export const DEFAULT_HISTORY_SIZE = 20;
