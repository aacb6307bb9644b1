// A test's child process (a window host, a store) runs the same TypeScript as the tests: its entry
// is bundled with esbuild into one file that plain `node` forks.

import * as esbuild from 'esbuild';

export function bundleForChild(entry: string, outfile: string): void {
  esbuild.buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
}
