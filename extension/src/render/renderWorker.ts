// The render worker's entry (dist/renderWorker.js): runs each job the host sends, one at a time,
// off the extension host's thread. It keeps its line counts across jobs. The host stops a job by
// terminating the worker, so nothing here listens for a cancel.

import { parentPort } from 'worker_threads';
import { LineCountCache } from './fileFacts';
import { runRenderJob, type RenderReply, type RenderRequest } from './renderJob';

const port = parentPort;
if (!port) throw new Error('renderWorker.js runs as a worker thread of the extension host');

const cache = new LineCountCache();
const reply = (message: RenderReply) => port.postMessage(message);

port.on('message', async ({ id, job, stream }: RenderRequest) => {
  try {
    const onSlice = stream ? (html: string) => reply({ id, kind: 'chunk', html }) : undefined;
    // A streamed page's HTML crosses slice by slice, and is neither kept here nor copied again.
    const rendered = await runRenderJob(job, cache, {
      onProgress: (step) => reply({ id, kind: 'progress', step }),
      onSlice,
      slicesOnly: stream,
    });
    reply({ id, kind: 'done', rendered });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    reply({ id, kind: 'failed', name, message });
  }
});
