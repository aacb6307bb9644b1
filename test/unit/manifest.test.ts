// package.json and the code agree: every contributed command is registered, and the other way round.

import * as fs from 'fs';
import * as path from 'path';
import {
  ActivityCommands,
  Commands,
  FindingCommands,
  HAS_FINDINGS_CONTEXT,
  NavigationCommands,
} from '../../extension/src/constants';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));

describe('package.json', () => {
  it('contributes exactly the commands the extension registers', () => {
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    expect(contributed).toEqual(
      [
        ...Object.values(Commands),
        ...Object.values(FindingCommands),
        ...Object.values(ActivityCommands),
        ...Object.values(NavigationCommands),
      ].sort(),
    );
  });

  it("keeps the finding actions out of the palette and on Redline's threads only", () => {
    const hidden = manifest.contributes.menus.commandPalette.map((m: { command: string; when: string }) => [
      m.command,
      m.when,
    ]);
    expect(hidden).toEqual(Object.values(FindingCommands).map((command) => [command, 'false']));
    for (const menu of ['comments/commentThread/context', 'comments/commentThread/title']) {
      for (const item of manifest.contributes.menus[menu]) expect(item.when).toMatch(/^commentController == redline\b/);
    }
  });

  it('binds Next and Previous Finding to keys VS Code leaves free, only while a review has findings', () => {
    // F8, Shift+F8, Alt+F8 and Shift+Alt+F8 are VS Code's problem navigation, Alt+F9 its next comment thread.
    expect(manifest.contributes.keybindings).toEqual([
      { command: NavigationCommands.nextFinding, key: 'ctrl+f8', when: HAS_FINDINGS_CONTEXT },
      { command: NavigationCommands.previousFinding, key: 'ctrl+shift+f8', when: HAS_FINDINGS_CONTEXT },
    ]);
  });

  it('targets VS Code 1.101 with types pinned to 1.101.x', () => {
    expect(manifest.engines.vscode).toBe('^1.101.0');
    expect(manifest.devDependencies['@types/vscode']).toMatch(/^~1\.101\./);
  });

  it('contributes the settings the extension reads', () => {
    const properties = Object.keys(manifest.contributes.configuration.properties).sort();
    expect(properties).toEqual(['redline.historySize', 'redline.requestTimeoutMs']);
  });

  it('keeps the fixed names', () => {
    expect(manifest.name).toBe('redline');
    expect(manifest.displayName).toBe('Redline');
    expect(manifest.main).toBe('./dist/extension.js');
    for (const script of ['build', 'test', 'bench']) expect(manifest.scripts[script]).toBeDefined();
  });
});
