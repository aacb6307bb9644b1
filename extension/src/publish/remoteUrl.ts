// Which GitHub repository a git remote URL names: the forms git accepts for a remote (https, ssh's
// scp-like `git@host:owner/repo.git`, `ssh://`, `git://`). The URL comes from the repository's own
// config, so anything else is refused rather than guessed at.

export interface RemoteRepository {
  /** Lower case, without user or (for ssh) port: where the web pages are, e.g. github.com. */
  readonly host: string;
  readonly owner: string;
  readonly repo: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const SCP_LIKE = /^(?:[^@/\s]+@)?([A-Za-z0-9.-]+):(?!\/)(.+)$/;

/** The repository a remote URL names, or undefined when it is not an `owner/repo` on a host. */
export function parseRemoteUrl(url: string): RemoteRepository | undefined {
  const text = url.trim();
  if (text.length === 0 || text.length > 2048 || /\s/.test(text)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return fromUrl(text);
  const scp = SCP_LIKE.exec(text);
  return scp ? fromParts(scp[1], scp[2]) : undefined;
}

function fromUrl(text: string): RemoteRepository | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (!['https', 'http', 'ssh', 'git', 'git+ssh', 'ssh+git'].includes(scheme)) return undefined;
  // A web address keeps its port (an Enterprise server may listen on one); ssh's port is not the web's.
  const host = scheme === 'https' || scheme === 'http' ? url.host : url.hostname;
  return fromParts(host, decodeURIComponent(url.pathname));
}

function fromParts(rawHost: string, rawPath: string): RemoteRepository | undefined {
  const host = canonicalHost(rawHost.toLowerCase());
  const parts = rawPath
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (parts.length !== 2) return undefined;
  const [owner, repo] = parts;
  if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return undefined;
  if (!/^[a-z0-9.-]+(?::\d{1,5})?$/.test(host) || host.startsWith('.') || host.startsWith('-')) return undefined;
  return { host, owner, repo };
}

/** GitHub's other names for github.com: its ssh-over-443 host and the www. prefix. */
function canonicalHost(host: string): string {
  return host === 'ssh.github.com' || host === 'www.github.com' ? 'github.com' : host;
}
