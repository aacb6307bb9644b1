// A process's wall clock set off by a fixed amount, as an NTP step or a wrong time zone setting
// leaves it: Date.now() and new Date() move, the steady clock (performance.now) does not. Done in
// JavaScript rather than with libfaketime, which this machine lacks and which would also move the
// steady clock. Installed first thing in a child's entry, or around a test in jest's own process.

/** Shifts this process's wall clock by `offsetMs`; returns the undo. */
export function shiftWallClock(offsetMs: number): () => void {
  const RealDate = globalThis.Date;
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      else super(...(args as [string | number]));
    }

    static override now(): number {
      return RealDate.now() + offsetMs;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
  return () => void (globalThis.Date = RealDate);
}
