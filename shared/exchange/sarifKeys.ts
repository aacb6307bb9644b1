// The names Redline writes into a SARIF log and reads back from one: its fingerprint's key and the
// property bags' keys. One module of names, so that the export, the import and the log's shape agree.

/** The partialFingerprints key: versioned, as SARIF asks, so that a change of recipe is a new key. */
export const FINGERPRINT_KEY = 'redlineFindingFingerprint/v1';

/** The property bag keys of a result, read back by the import. */
export const RESULT_PROPERTY = {
  id: 'redline.id',
  severity: 'redline.severity',
  state: 'redline.state',
  stale: 'redline.stale',
  replies: 'redline.replies',
  /** Redline's fingerprint of a result another tool wrote, whose own fingerprints are left as they were. */
  fingerprint: 'redline.fingerprint',
} as const;

/** The property bag keys of the run. */
export const RUN_PROPERTY = {
  title: 'redline.title',
  assistant: 'redline.assistant',
  revision: 'redline.revision',
  omittedResults: 'redline.omittedResults',
  /** The log a tool's run was imported from. */
  importedFrom: 'redline.importedFrom',
} as const;
