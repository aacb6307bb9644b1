// The one error the SARIF import throws: its message says why the log was not opened and what to do.

export class SarifImportError extends Error {
  override readonly name = 'SarifImportError';
}
