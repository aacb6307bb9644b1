// How long this thread's event loop was held by work, for tests that bound it. A timer's delay
// (monitorEventLoopDelay) also counts the time the operating system gave the core to another
// process, which on a busy machine passes any useful bound; so each delay here counts only as far
// as this thread had the CPU meanwhile. Work that holds the thread uses the CPU for as long as it
// holds it, on any machine; a thread waiting for a core does not. Where the system says how much
// CPU each thread used (Linux: /proc/thread-self/schedstat, in nanoseconds), that is this thread's;
// elsewhere it is the process's, bounded too by the time this thread's event loop was busy, so that
// a worker thread of the same process, busy meanwhile, is not counted as a hold.

import { readFileSync } from 'fs';
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

/** The CPU this thread has used, in milliseconds, where the system says; else undefined. */
function threadCpuMs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** The CPU this thread (or, where that is not known, the process) has used, in milliseconds. */
function cpuMs(): number {
  const thread = threadCpuMs();
  if (thread !== undefined && Number.isFinite(thread)) return thread;
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Samples the event loop like monitorEventLoopDelay; a sample's delay is the smallest of the time
 * past its due time, the CPU time this thread used and the time its loop was busy, since the sample before.
 */
export function monitorThreadHolds(): ThreadHolds {
  let timer: NodeJS.Timeout | undefined;
  let lastAt = 0;
  let lastCpu = cpuMs();
  let lastLoop = performance.eventLoopUtilization();
  let maxMs = 0;
  const sample = () => {
    const now = performance.now();
    const cpu = cpuMs();
    const busyMs = performance.eventLoopUtilization(lastLoop).active;
    const lateMs = now - lastAt - RESOLUTION_MS;
    maxMs = Math.max(maxMs, Math.min(lateMs, cpu - lastCpu, busyMs));
    lastAt = now;
    lastCpu = cpuMs();
    lastLoop = performance.eventLoopUtilization();
  };
  return {
    enable() {
      if (timer) return;
      lastAt = performance.now();
      lastCpu = cpuMs();
      lastLoop = performance.eventLoopUtilization();
      timer = setInterval(sample, RESOLUTION_MS);
    },
    disable() {
      // A hold that ended just now (the work measured, right before this call) has had no sample after it yet.
      if (timer) sample();
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
