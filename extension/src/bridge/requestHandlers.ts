// What the extension does for each IPC method. Plain TypeScript: the parts that need the editor
// come in through `EditorSide`, which the extension implements with `vscode` and the
// integration tests with a stand-in.

import type { GetSelectionResult, OpenLocationResult } from '../../../shared/protocol';
import type { RequestHandlers } from '../ipc/ipcConnection';
import type { ReviewStore } from '../review/reviewStore';
import type { ReviewRenderer } from '../render/reviewRenderer';

export interface EditorSide {
  getSelection(): Promise<GetSelectionResult> | GetSelectionResult;
  openLocation(reference: string, cwd: string | undefined): Promise<OpenLocationResult>;
}

export function createRequestHandlers(store: ReviewStore, renderer: ReviewRenderer, editor: EditorSide): RequestHandlers {
  return {
    'present-review': (params) => {
      const sectionsBefore = params.mode === 'append' ? (store.current?.sections.length ?? 0) : 0;
      const review = store.present(params);
      // The report covers what this call sent: after an append, the new part only.
      const references =
        params.mode === 'replace'
          ? renderer.render(review).references
          : renderer.renderFragment(params.content, review.cwd).references;
      return {
        revision: review.revision,
        title: review.title,
        sections: review.sections.slice(sectionsBefore),
        sectionCount: review.sections.length,
        references,
      };
    },
    'get-review': () => {
      const review = store.current;
      if (!review) return { revision: 0, markdown: '', sections: [] };
      return {
        revision: review.revision,
        title: review.title,
        markdown: review.markdown,
        sections: [...review.sections],
        updatedAt: review.updatedAt,
      };
    },
    'get-selection': () => editor.getSelection(),
    'open-location': (params) => editor.openLocation(params.reference, params.cwd),
  };
}
