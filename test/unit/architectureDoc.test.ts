// docs/ARCHITECTURE.md is a map: every file it names must exist, or the map has gone stale.

import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '../..');

it('names only files that exist', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const named = [
    ...new Set(
      [
        ...doc.matchAll(/`((?:extension|shared|mcp-server|test)\/[\w./-]+\.(?:ts|mjs|js)|\.dependency-cruiser\.cjs)`/g),
      ].map((match) => match[1]),
    ),
  ];
  expect(named.length).toBeGreaterThan(50);
  expect(named.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
});
