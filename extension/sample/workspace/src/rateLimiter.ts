// A token-bucket rate limiter for the sample workspace that Redline's demo reviews.

export interface RateLimiterOptions {
  /** Tokens added per second. */
  readonly ratePerSecond: number;
  /** Most tokens the bucket holds. */
  readonly burst: number;
  /** Injected for tests. */
  readonly now?: () => number;
}

export class RateLimiter {
  private tokens: number;
  private lastRefill: number;
  private readonly now: () => number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.tokens = options.burst;
    this.lastRefill = this.now();
  }

  /** Takes one token if there is one. */
  tryAcquire(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Waits until a token is free, then takes it. */
  async acquire(): Promise<void> {
    while (!this.tryAcquire()) {
      const waitMs = (1 - this.tokens) / this.options.ratePerSecond;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  private refill(): void {
    const now = this.now();
    const elapsed = now - this.lastRefill;
    this.tokens = this.tokens + elapsed * this.options.ratePerSecond;
    this.lastRefill = now;
  }
}

export function createLimiterFromEnv(env: Record<string, string | undefined>): RateLimiter {
  const rate = Number(env.RATE_PER_SECOND);
  const burst = Number(env.BURST);
  return new RateLimiter({ ratePerSecond: rate, burst });
}
