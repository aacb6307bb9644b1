// The packaged extension the e2e suites test: finds the built redline-<version>.vsix and
// unpacks it, so that a file missing from the package fails the tests rather than the user.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { REPO_ROOT } from './harness/install.mjs';

export const EXTENSION_ID = 'redline-dev.redline';
export const FIXTURE_WORKSPACE = join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'workspace');

/**
 * The .vsix that `npm run package` built for the version in package.json, or `given` (another
 * build's, e.g. an older commit's to compare its figures with this one's).
 * @param {string} [given]
 * @returns {{ path: string, version: string }}
 */
export function findVsix(given) {
  const { name, version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  if (given !== undefined) {
    const path = resolve(given);
    if (!existsSync(path)) throw new Error(`--vsix ${given} does not exist`);
    return { path, version: /-(\d+\.\d+\.\d+[^-]*)\.vsix$/.exec(path)?.[1] ?? version };
  }
  const path = join(REPO_ROOT, `${name}-${version}.vsix`);
  if (!existsSync(path)) {
    throw new Error(`${path} does not exist. Build it first: npm run package`);
  }
  const built = statSync(path).mtimeMs;
  for (const bundle of ['extension.js', 'webview.js', 'mcp-server.js', 'mcp-server-full.js']) {
    const file = join(REPO_ROOT, 'dist', bundle);
    if (existsSync(file) && statSync(file).mtimeMs > built + 1000) {
      process.stderr.write(
        `warning: dist/${bundle} is newer than ${name}-${version}.vsix; the tests use the .vsix. Run: npm run package\n`,
      );
    }
  }
  return { path, version };
}

/**
 * Unpacks a .vsix (a zip) into `targetDir` and returns `<targetDir>/extension`, the folder
 * VS Code itself would install. Plain zlib, because a fresh machine need not have `unzip`.
 * @param {string} vsixPath @param {string} targetDir
 * @returns {string}
 */
export function extractVsix(vsixPath, targetDir) {
  const zip = readFileSync(vsixPath);
  const root = resolve(targetDir);
  for (const entry of zipEntries(zip, vsixPath)) {
    const destination = resolve(root, normalize(entry.name));
    if (!destination.startsWith(root + sep))
      throw new Error(`${vsixPath}: entry ${JSON.stringify(entry.name)} points outside the package`);
    if (entry.name.endsWith('/')) {
      mkdirSync(destination, { recursive: true });
      continue;
    }
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(destination, entry.read());
  }
  const extensionDir = join(root, 'extension');
  if (!existsSync(join(extensionDir, 'package.json'))) throw new Error(`${vsixPath} has no extension/package.json`);
  return extensionDir;
}

/**
 * Checks what a .vsix holds: only the bundles, media, README, CHANGELOG, LICENSE and the
 * manifests; no source, tests, source maps or node_modules.
 * @param {string} vsixPath
 * @returns {{ files: string[], bytes: number, unexpected: string[] }}
 */
export function checkVsixContents(vsixPath) {
  const allowed = [
    /^extension\.vsixmanifest$/,
    /^\[Content_Types\]\.xml$/,
    /^extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt)$/,
    /^extension\/dist\/(extension|webview|highlighter|renderWorker|mcp-server|mcp-server-full|mermaid\.min)\.js$/,
    /^extension\/dist\/mcp-server-opening\.json$/,
    /^extension\/dist\/review-view\.html$/,
    /^extension\/dist\/toml-edit\.wasm$/,
    /^extension\/extension\/media\/[\w.-]+\.(css|png)$/,
    /^extension\/extension\/media\/walkthrough\/[\w.-]+\.md$/,
    /^extension\/extension\/sample\/(review\.md|workspace\/README\.md|workspace\/src\/[\w.-]+\.ts)$/,
  ];
  const entries = zipEntries(readFileSync(vsixPath), vsixPath);
  const files = entries.map((entry) => entry.name).filter((name) => !name.endsWith('/'));
  const readme =
    entries
      .find((entry) => entry.name === 'extension/readme.md')
      ?.read()
      .toString('utf8') ?? '';
  return {
    files,
    bytes: statSync(vsixPath).size,
    unexpected: files.filter((name) => !allowed.some((pattern) => pattern.test(name))),
    brokenImages: brokenReadmeImages(readme),
  };
}

/**
 * The packaged README's images that would not load on the Marketplace or Open VSX. vsce rewrites a
 * relative image to the repository's `raw/HEAD/<path>` (package.json's repository), and the
 * Marketplace shows only https images that are not SVG: each must be such a URL, of a file in this
 * repository.
 * @param {string} readme @returns {string[]}
 */
function brokenReadmeImages(readme) {
  const { repository } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  const base = `${String(repository?.url ?? repository).replace(/\.git$/, '')}/raw/HEAD/`;
  return [...readme.matchAll(/!\[[^\]\n]*\]\(([^)\s]+)/g)]
    .map((match) => match[1])
    .filter(
      (url) =>
        !url.startsWith(base) || /\.svg$/i.test(url) || !existsSync(join(REPO_ROOT, decodeURI(url.slice(base.length)))),
    );
}

/**
 * The entries of a zip archive, read through its central directory (no zip64: a .vsix is small).
 * @param {Buffer} zip @param {string} label
 * @returns {Array<{ name: string, read: () => Buffer }>}
 */
function zipEntries(zip, label) {
  const END_SIGNATURE = 0x06054b50;
  const CENTRAL_SIGNATURE = 0x02014b50;
  const LOCAL_SIGNATURE = 0x04034b50;
  // The end record is 22 bytes plus a comment of up to 64 KiB.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_SIGNATURE) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${label} is not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new Error(`${label}: bad central directory entry ${index}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    entries.push({
      name,
      read: () => {
        if (zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE)
          throw new Error(`${label}: bad local header for ${name}`);
        const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
        const raw = zip.subarray(start, start + compressedSize);
        let data;
        if (method === 0) data = Buffer.from(raw);
        else if (method === 8) data = inflateRawSync(raw);
        else throw new Error(`${label}: ${name} uses zip method ${method}, which this reader does not support`);
        if (data.length !== size || crc32(data) !== crc)
          throw new Error(`${label}: ${name} is corrupt (size or CRC mismatch)`);
        return data;
      },
    });
  }
  return entries;
}
