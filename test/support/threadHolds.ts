// How long this thread's event loop was held by work, for tests that bound it. A timer's delay
// (monitorEventLoopDelay) also counts the time the operating system gave the core to another
// process, which on a busy machine passes any useful bound; so each delay here counts only as far
// as this process had the CPU meanwhile, and only as far as this thread's event loop was busy
// (its event-loop utilization): a worker thread of the same process, busy meanwhile, uses the
// process's CPU without holding this thread. Work that holds the thread uses the CPU, and keeps the
// loop busy, for as long as it holds it, on any machine; a process waiting for a core does neither.

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
 * Samples the event loop like monitorEventLoopDelay; a sample's delay is the smallest of the time
 * past its due time, the CPU time the process used and the time this thread's loop was busy, since
 * the sample before.
 */
export function monitorThreadHolds(): ThreadHolds {
  let timer: NodeJS.Timeout | undefined;
  let lastAt = 0;
  let lastCpu = process.cpuUsage();
  let lastLoop = performance.eventLoopUtilization();
  let maxMs = 0;
  const sample = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const busyMs = performance.eventLoopUtilization(lastLoop).active;
    const lateMs = now - lastAt - RESOLUTION_MS;
    maxMs = Math.max(maxMs, Math.min(lateMs, (cpu.user + cpu.system) / 1000, busyMs));
    lastAt = now;
    lastCpu = process.cpuUsage();
    lastLoop = performance.eventLoopUtilization();
  };
  return {
    enable() {
      if (timer) return;
      lastAt = performance.now();
      lastCpu = process.cpuUsage();
      lastLoop = performance.eventLoopUtilization();
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
