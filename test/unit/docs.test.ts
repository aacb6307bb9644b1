// The README, every page in docs/ and the walkthrough's pages stay true: their relative links and
// anchors resolve, the npm scripts they name exist, the `redline.*` settings and commands they name
// are contributed, and the files they name in code spans exist. docs/ARCHITECTURE.md has its own
// test too (architectureDoc.test.ts).

import * as fs from 'fs';
import * as path from 'path';
import { RESULT_PROPERTY, RUN_PROPERTY } from '../../shared/exchange/sarifExport';

const root = path.join(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributes = manifest.contributes;
const commandIds = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));
const commandTitles = new Set<string>(
  contributes.commands.map((c: { category?: string; title: string }) =>
    c.category ? `${c.category}: ${c.title}` : c.title,
  ),
);
const settings = new Set(Object.keys(contributes.configuration.properties));
/** Names under `redline.` that are neither: the SARIF export's property keys. */
const sarifProperties = new Set<string>([...Object.values(RESULT_PROPERTY), ...Object.values(RUN_PROPERTY)]);
const scripts = new Set(Object.keys(manifest.scripts));
/** `npm <word>` that is npm's own command, not a script of package.json's. */
const NPM_COMMANDS = new Set(['install', 'ci', 'i', 'exec', 'ls', 'view', 'pack', 'publish', 'version', 'init']);

const pages = [
  'README.md',
  'CHANGELOG.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...fs
    .readdirSync(path.join(root, 'extension/media/walkthrough'))
    .map((name) => `extension/media/walkthrough/${name}`),
];
const read = (page: string) => fs.readFileSync(path.join(root, page), 'utf8');

/** Fenced blocks' text, and the rest with fenced blocks and code spans blanked out. */
function split(markdown: string): { fenced: string[]; prose: string; spans: string[] } {
  const fenced: string[] = [];
  const spans: string[] = [];
  // A backtick fence's info string has no backtick: "```` ```suggestion ```` block" opens none.
  const withoutFences = markdown.replace(
    /^ *(`{3,}(?=[^`\n]*$)|~{3,})[^\n]*\n([\s\S]*?)^ *\1[ \t]*$/gm,
    (_all, _fence, body) => {
      fenced.push(body);
      return '';
    },
  );
  const prose = withoutFences.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_all, _ticks, body: string) => {
    spans.push(body.trim());
    return ' ';
  });
  return { fenced, prose, spans };
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const { fenced } = split(markdown);
  let text = markdown;
  for (const block of fenced) text = text.replace(block, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe.each(pages)('%s', (page) => {
  const markdown = read(page);
  const { fenced, prose, spans } = split(markdown);

  it('has only relative links and anchors that resolve', () => {
    const broken: string[] = [];
    for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [file, anchor] = target.split('#');
      const resolved = file === '' ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), file);
      if (!fs.existsSync(resolved)) {
        broken.push(`${target}: no file ${path.relative(root, resolved)}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${path.relative(root, resolved)}`);
    }
    expect(broken).toEqual([]);
  });

  it('names only npm scripts that package.json has', () => {
    const named = [...fenced, ...spans].flatMap((text) =>
      [...text.matchAll(/\bnpm\s+(?:run(?:-script)?\s+)?([\w:-]+)/g)].map((match) => match[1]),
    );
    expect(named.filter((name) => name !== 'run' && !NPM_COMMANDS.has(name) && !scripts.has(name))).toEqual([]);
  });

  it('names only settings and commands that package.json contributes', () => {
    const ids = [...markdown.matchAll(/\bredline\.(?!dev\b)[\w.]*\w/g)].map((match) => match[0]);
    expect(ids.filter((id) => !commandIds.has(id) && !settings.has(id) && !sarifProperties.has(id))).toEqual([]);
    const titles = [...markdown.matchAll(/\*\*(Redline: [^*]+?)\*\*/g)].map((match) => match[1].replace(/\s+/g, ' '));
    expect(titles.filter((title) => !commandTitles.has(title))).toEqual([]);
  });

  it("names only the repository's files that exist", () => {
    const files = spans.filter((span) =>
      /^(?:extension|shared|mcp-server|test|scripts|bench|docs)\/[\w./-]+\.(?:ts|mjs|js|cjs|md|json|png|gif|txt)$/.test(
        span,
      ),
    );
    expect(files.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
  });
});

it('checks every page in docs/, the README and the walkthrough', () => {
  expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'docs/develop.md']));
  expect(pages.length).toBeGreaterThan(12);
});
