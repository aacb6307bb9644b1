// The layers of Redline's source, and the only directions their imports may take (`npm run
// check:layers`, part of `npm test`). docs/ARCHITECTURE.md draws them. From the bottom:
//
//   shared/           the protocol, framing, links, discovery: both sides import it, it imports neither
//   extension/src/render/   the pure core: markdown to blocks, references, findings, suggestions,
//                     sections and HTML; runs in the render worker and in unit tests alike
//   extension/src/review/   the store: reviews, history, feedback, on disk; plain TypeScript
//   the features      panel, findings, editor, activity, assistants, bridge, ipc: VS Code
//   extension.ts      wires the features together
//   mcp-server/src/   the MCP server and command line: shared/ only
//   extension/webview/  the panel's page: shared/ and the panel's message types only
//   mcp-server/view/  the review's view in a chat (an MCP App): shared/ only

const FEATURES =
  '^extension/src/(activity|assistants|bridge|editor|exchange|findings|ipc|panel|publish|sample)/|^extension/src/(commands|reviewActions|settings|constants)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes a module impossible to read, load or test on its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-only-shared',
      severity: 'error',
      comment: 'shared/ is what both sides import: it must not reach into either.',
      from: { path: '^shared/' },
      to: { path: '^(extension|mcp-server)/' },
    },
    {
      name: 'mcp-server-imports-only-shared',
      severity: 'error',
      comment:
        'The MCP server is a separate process: it speaks to the window over the protocol, never through its code.',
      from: { path: '^mcp-server/' },
      to: { path: '^extension/' },
    },
    {
      name: 'extension-does-not-import-mcp-server',
      severity: 'error',
      from: { path: '^extension/' },
      to: { path: '^mcp-server/' },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'render/ is the pure core: it runs in a worker thread, where there is no vscode, and knows nothing of the store or the features.',
      from: { path: '^extension/src/render/' },
      to: { path: ['^extension/src/(?!render/)', '^vscode$|/@types/vscode/'] },
    },
    {
      name: 'store-stays-below-the-features',
      severity: 'error',
      comment:
        'review/ is plain TypeScript under the features: it may use the core and emitter.ts, never vscode or a feature.',
      from: { path: '^extension/src/review/' },
      to: { path: [FEATURES, '^extension/src/extension\\.ts$', '^vscode$|/@types/vscode/'] },
    },
    {
      name: 'publishing-core-is-plain',
      severity: 'error',
      comment:
        'Publishing to a pull request is plain TypeScript but for the command, the sign-in and the settings, so the rest is tested without VS Code.',
      from: {
        path: '^extension/src/publish/',
        pathNot: '^extension/src/publish/(publishCommand|githubSignIn|publishSettings)\\.ts$',
      },
      to: { path: '^vscode$|/@types/vscode/' },
    },
    {
      name: 'only-extension-ts-is-the-top',
      severity: 'error',
      comment: 'extension.ts wires the features; nothing imports it.',
      from: {},
      to: { path: '^extension/src/extension\\.ts$' },
    },
    {
      name: 'webview-imports-only-shared-and-message-types',
      severity: 'error',
      comment: 'The webview is a page in its own sandbox: only shared/ and the panel message types it parses.',
      from: { path: '^extension/webview/' },
      to: { path: '^extension/src/(?!panel/(webviewMessages|messageParsing)\\.ts$)' },
    },
    {
      name: 'chat-view-imports-only-shared',
      severity: 'error',
      comment:
        "The review's view is a page in a chat's sandbox: it reaches the server only through the host, never through its code.",
      from: { path: '^mcp-server/view/' },
      to: { path: '^(extension|mcp-server/src)/' },
    },
    {
      name: 'mcp-server-does-not-import-the-view',
      severity: 'error',
      comment: 'The view is built into a page of its own (dist/review-view.html) that the server reads as a file.',
      from: { path: '^mcp-server/src/' },
      to: { path: '^mcp-server/view/' },
    },
  ],
  options: {
    // Packages are seen (a `vscode` import is), not followed.
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
