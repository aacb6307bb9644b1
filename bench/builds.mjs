// The builds a bench measures: this checkout ("now"), or with `--before <dir>` another checkout
// with its dist/ built ("before") and this one ("after"). The bench's own files come from this
// checkout; whatever they import from the product (extension/, shared/, mcp-server/, test/) is
// bundled from the build's tree, and its dist/ is what runs (the MCP server, the render worker).

import * as esbuild from 'esbuild';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

export const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = join(root, 'bench');

/** @typedef {{ label: string, tree: string }} Build */

/** This checkout alone, or with `beforeDir` (--before) first: the order they alternate in. @returns {Build[]} */
export function buildsOf(beforeDir, usage) {
  if (beforeDir === undefined) return [{ label: 'now', tree: root }];
  const before = resolve(beforeDir);
  for (const file of [
    'dist/mcp-server.js',
    'dist/renderWorker.js',
    'extension/src/render/reviewRenderer.ts',
    'test/integration/harness.ts',
    'node_modules',
  ]) {
    if (!existsSync(join(before, file))) throw new Error(`--before ${beforeDir}: ${file} is missing there.\n${usage}`);
  }
  return [
    { label: 'before', tree: before },
    { label: 'after', tree: root },
  ];
}

/**
 * Bundles bench/<name>.ts for `build` into out/bench/<label>/<name>.cjs: the bench's own files
 * from here, the product's from the build's tree.
 */
export async function bundleFor(build, name) {
  const outfile = join(root, 'out', 'bench', build.label, `${name}.cjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [join(benchDir, `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    plugins: build.tree === root ? [] : [fromTree(build.tree)],
  });
  return outfile;
}

/** Resolves a bench file's relative import that leaves bench/ in `tree` instead of here. */
function fromTree(tree) {
  return {
    name: 'bench-from-tree',
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (!args.importer.startsWith(benchDir + sep)) return undefined;
        const target = resolve(dirname(args.importer), args.path);
        if (target.startsWith(benchDir + sep)) return undefined;
        const moved = join(tree, relative(root, target));
        const found = await plugin.resolve(moved, { kind: args.kind, resolveDir: dirname(moved) });
        return found.errors.length ? { errors: found.errors } : { path: found.path };
      });
    },
  };
}

/** The environment that points the harness at `build`'s dist/, with the probe as its render worker. */
export function harnessEnv(build) {
  return {
    ...process.env,
    REDLINE_MCP_SERVER: join(build.tree, 'dist', 'mcp-server.js'),
    REDLINE_RENDER_WORKER: join(benchDir, 'renderWorkerProbe.cjs'),
    REDLINE_BENCH_RENDER_WORKER: join(build.tree, 'dist', 'renderWorker.js'),
  };
}

/** The commit a build is at, and whether its tree has changes: for the report's header. */
export function describeBuild(build) {
  try {
    const commit = execFileSync('git', ['-C', build.tree, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
    const changed =
      execFileSync('git', ['-C', build.tree, 'status', '--porcelain', '--untracked-files=no'], {
        encoding: 'utf8',
      }).trim() !== '';
    return `${build.label}: ${build.tree} at ${commit.slice(0, 70)}${changed ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return `${build.label}: ${build.tree}`;
  }
}
