// The import worker's entry (dist/sarifImportWorker.js): each message is one import job
// (importJob.ts), answered with the finished request or the reason there is none. It runs beside
// the extension host, so a log of tens of megabytes is read, parsed and converted off its thread.

import { parentPort } from 'worker_threads';
import { runImportJob, type ImportJob } from './importJob';

parentPort?.on('message', (job: ImportJob) => {
  void runImportJob(job).then((reply) => parentPort?.postMessage(reply));
});
