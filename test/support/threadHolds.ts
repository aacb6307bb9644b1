// How long this thread's event loop was held by work, for tests that bound it. A timer's delay
// (monitorEventLoopDelay) also counts the time the operating system gave the core to another
// process, which on a busy machine passes any useful bound; so each delay here counts only as far
// as this process had the CPU meanwhile. Work that holds the thread uses the CPU for as long as it
// holds it, on any machine; a process waiting for a core does not.

import { performance } from 'perf_hooks';

/** How often the loop is sampled, as monitorEventLoopDelay's resolution. */
const RESOLUTION_MS = 5;

export interface ThreadHolds {
  enable(): void;
  disable(): void;
  reset(): void;
  /** The longest hold seen while enabled, in milliseconds. */
  readonly maxMs: number;
}

/**
 * Samples the event loop like monitorEventLoopDelay; a sample's delay is the smaller of the time
 * past its due time and the CPU time the process used since the sample before.
 */
export function monitorThreadHolds(): ThreadHolds {
  let timer: NodeJS.Timeout | undefined;
  let lastAt = 0;
  let lastCpu = process.cpuUsage();
  let maxMs = 0;
  const sample = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const lateMs = now - lastAt - RESOLUTION_MS;
    maxMs = Math.max(maxMs, Math.min(lateMs, (cpu.user + cpu.system) / 1000));
    lastAt = now;
    lastCpu = process.cpuUsage();
  };
  return {
    enable() {
      if (timer) return;
      lastAt = performance.now();
      lastCpu = process.cpuUsage();
      timer = setInterval(sample, RESOLUTION_MS);
    },
    disable() {
      clearInterval(timer);
      timer = undefined;
    },
    reset() {
      maxMs = 0;
    },
    get maxMs() {
      return maxMs;
    },
  };
}
