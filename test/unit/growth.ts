// How a cost grows with its input, measured so that a busy shared machine cannot fail a linear
// operation. Timings are only ever compared as ratios within one run, each side is the best of
// several trials (noise can only add time, and the first trials warm the JIT), and a high ratio is
// measured again before it counts, since a neighbour's burst of CPU rarely repeats while a
// quadratic cost always does. A trial counts the CPU time the process had, not the time on the
// clock: while the machine's other processes hold the cores, the clock runs on and the work does not.

/** Milliseconds of CPU time this process has used (every thread of it: the smaller, with the clock's, counts). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Milliseconds per call: repeated until the total is measurable, best of five. */
export function msPerCall(fn: () => unknown): number {
  let best = Infinity;
  for (let trial = 0; trial < 5; trial++) {
    let calls = 0;
    const trialStart = { clock: performance.now(), cpu: cpuMs() };
    let elapsed = 0;
    do {
      fn();
      calls++;
      elapsed = Math.min(performance.now() - trialStart.clock, cpuMs() - trialStart.cpu);
    } while (elapsed < 15 || calls < 2);
    best = Math.min(best, elapsed / calls);
  }
  return best;
}

/** The same for an async operation. */
export async function msPerAsyncCall(fn: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let trial = 0; trial < 5; trial++) {
    let calls = 0;
    const trialStart = { clock: performance.now(), cpu: cpuMs() };
    let elapsed = 0;
    do {
      await fn();
      calls++;
      elapsed = Math.min(performance.now() - trialStart.clock, cpuMs() - trialStart.cpu);
    } while (elapsed < 15 || calls < 2);
    best = Math.min(best, elapsed / calls);
  }
  return best;
}

/** Ratios above this are measured again: linear is ~4 at 4× the input, quadratic ~16. */
const SUSPICIOUS_RATIO = 8;

/**
 * How much longer an operation takes on 4× the input: ~4 when linear (up to ~8 with cache and GC
 * effects on larger strings), ~16 when quadratic. `make(n)` builds the operation for input size n.
 */
export async function growthAt4x(make: (n: number) => () => unknown, n: number): Promise<number> {
  const small = make(n);
  const large = make(4 * n);
  const once = async () => (await msPerAsyncCall(async () => large())) / (await msPerAsyncCall(async () => small()));
  let ratio = await once();
  for (let retry = 0; retry < 3 && ratio > SUSPICIOUS_RATIO; retry++) ratio = Math.min(ratio, await once());
  return ratio;
}

/** The synchronous form, for pure functions. */
export function syncGrowthAt4x(make: (n: number) => () => unknown, n: number): number {
  const small = make(n);
  const large = make(4 * n);
  const once = () => msPerCall(large) / msPerCall(small);
  let ratio = once();
  for (let retry = 0; retry < 3 && ratio > SUSPICIOUS_RATIO; retry++) ratio = Math.min(ratio, once());
  return ratio;
}
