// A mistake in how the command line was called: it exits 2 and prints its usage.

export class UsageError extends Error {}
