// Documents whose text get-selection holds back: files outside the workspace that Redline opened
// for an assistant after the user agreed to show them. Showing a file is not sharing it; the
// text is the assistant's only once the user has selected in it themselves.

export class WithheldDocuments {
  /** Keyed by the document's URI string; an entry goes when the user selects in it or closes it. */
  private readonly withheld = new Set<string>();

  /** Redline is about to open this document, outside the workspace, for an assistant. */
  openedForAssistant(uri: string): void {
    this.withheld.add(uri);
  }

  /** The user selected in it with the keyboard or the mouse (not an extension through the API). */
  userSelected(uri: string): void {
    this.withheld.delete(uri);
  }

  closed(uri: string): void {
    this.withheld.delete(uri);
  }

  isWithheld(uri: string): boolean {
    return this.withheld.has(uri);
  }
}
