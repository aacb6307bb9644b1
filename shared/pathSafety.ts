// Pure checks on paths taken from untrusted review text, run before any file-system call so that
// a review cannot make the editor touch a network share, a device, or say what exists outside the workspace.

/** The slice of `path` these checks use, so tests can pass `path.win32` on any platform. */
export interface PathFlavour {
  sep: string;
  isAbsolute(p: string): boolean;
  resolve(...parts: string[]): string;
  relative(from: string, to: string): string;
}

// `\\host\share`, `//host/share`, `\\?\C:\…`, `\\.\PhysicalDrive0`, and the mixed `\/host` forms:
// Windows treats any two leading separators as a UNC or device prefix, which would mean SMB traffic
// (and an NTLM hash sent to the host) or a raw device read.
const UNC_OR_DEVICE = /^[\\/]{2}/;
// `file://host/share/a.ts` names a share the same way; `file:///` and `file://localhost/` are local.
const DRIVE = /^[A-Za-z]:[\\/]/;
const REMOTE_FILE_URI = /^file:[\\/]{2}(?!localhost[\\/]|[\\/])/i;

/** Why a path must never reach the file system, or undefined if it may be looked up. */
export function refusedPathReason(p: string): string | undefined {
  if (p.includes('\0')) return 'the path contains a NUL character';
  if (UNC_OR_DEVICE.test(p) || REMOTE_FILE_URI.test(p)) {
    return 'network shares and device paths are not opened from a review; use a path in the workspace';
  }
  return undefined;
}

/** True if `child` is `root` or inside it, judged on the normalised spelling (no file-system call). */
export function isWithin(root: string, child: string, flavour: PathFlavour): boolean {
  const relative = flavour.relative(root, child);
  if (relative === '') return true;
  // On Windows a path on another drive comes back absolute.
  return !flavour.isAbsolute(relative) && relative !== '..' && !relative.startsWith(`..${flavour.sep}`);
}

export type Candidates =
  | { kind: 'refused'; reason: string }
  /** `paths`: where it would be, for a caller that has asked the user first. */
  | { kind: 'outside'; paths: string[] }
  | { kind: 'candidates'; paths: string[] };

/**
 * Where a reference may be, in search order, restricted to the roots. A path outside every root
 * (absolute, or escaping with `..`) is `outside` whether or not it exists, and is never looked up,
 * so the answer cannot reveal anything about the rest of the disk.
 */
export function candidatePaths(referencePath: string, roots: readonly string[], flavour: PathFlavour): Candidates {
  const refused = refusedPathReason(referencePath);
  if (refused !== undefined) return { kind: 'refused', reason: refused };
  const inRoots = (p: string) => roots.some((root) => isWithin(root, p, flavour));
  if (flavour.sep === '/') {
    // `C:\src\a.ts` cannot exist here, and must not be joined onto a root as if it were relative.
    if (DRIVE.test(referencePath)) return { kind: 'outside', paths: [] };
    // An assistant on Windows writes `src\a.ts`; elsewhere a backslash in a file name is vanishingly rare.
    referencePath = referencePath.replace(/\\/g, '/');
  }
  if (flavour.isAbsolute(referencePath)) {
    const absolute = flavour.resolve(referencePath);
    return inRoots(absolute) ? { kind: 'candidates', paths: [absolute] } : { kind: 'outside', paths: [absolute] };
  }
  // `../other/a.ts` from the first root may land in another root; that is still inside.
  const joined = [...new Set(roots.map((root) => flavour.resolve(root, referencePath)))];
  const paths = joined.filter(inRoots);
  return paths.length > 0 ? { kind: 'candidates', paths } : { kind: 'outside', paths: joined };
}
