// A chat host that renders MCP Apps, in the browser: the MCP TypeScript SDK's Client, declaring the
// io.modelcontextprotocol/ui extension, and the host half of @modelcontextprotocol/ext-apps
// (AppBridge). It lists the tools, calls present-review as a model would, reads the ui:// resource
// the tool links to, and renders it in a sandboxed iframe (scripts only, an origin of its own) with
// the content security policy its _meta.ui.csp declares, as the specification asks of a host.
// The view's tool calls go through it: it lets through only tools whose visibility includes "app",
// and logs each. Bundled for the page by chatHost.mjs; its MCP connection is relayed over
// Playwright to the built server, which runs in Node.
import { Client } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

const UI_EXTENSION = 'io.modelcontextprotocol/ui';
const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
const HOST_INFO = { name: 'redline-test-host', version: '1.0.0' };

/** An MCP transport whose other end is the Node process, through two functions Playwright provides. */
class RelayTransport {
  /** @type {((message: any) => void) | undefined} */ onmessage;
  /** @type {(() => void) | undefined} */ onclose;
  /** @type {((error: Error) => void) | undefined} */ onerror;
  async start() {
    window.chatHostDeliver = (/** @type {string} */ line) => this.onmessage?.(JSON.parse(line));
  }
  /** @param {any} message */
  async send(message) {
    await window.chatHostSend(JSON.stringify(message));
  }
  async close() {
    this.onclose?.();
  }
}

/** What a test reads back: every tool call the view made, and what the host refused. */
const log = { toolCalls: /** @type {Array<{ name: string, arguments: unknown }>} */ ([]), refused: [] };
/** @type {Client | undefined} */
let client;
/** @type {any[]} */
let tools = [];
/** @type {AppBridge | undefined} */
let bridge;
let hostContext = { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web' };

/** The policy the specification has a host build from a view's declared domains (none here). */
function contentSecurityPolicy(csp = {}) {
  const list = (/** @type {string[] | undefined} */ domains) => (domains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${list(csp.resourceDomains)}`,
    `style-src 'self' 'unsafe-inline' ${list(csp.resourceDomains)}`,
    `connect-src 'self' ${list(csp.connectDomains)}`,
    `img-src 'self' data: ${list(csp.resourceDomains)}`,
    `font-src 'self' ${list(csp.resourceDomains)}`,
    `media-src 'self' data: ${list(csp.resourceDomains)}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join('; ');
}

/** Renders `html` in a fresh sandboxed frame and connects a bridge to it. */
async function mount(html, csp, { onCall, toolInput, toolResult }) {
  document.getElementById('chat')?.replaceChildren();
  const policy = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(csp).replaceAll('"', '&quot;')}">`;
  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.cssText = 'width: 760px; height: 640px; border: 1px solid #8888; border-radius: 8px;';
  frame.srcdoc = html.replace(/<head>/i, `<head>${policy}`);
  document.getElementById('chat').append(frame);
  bridge = new AppBridge(client ?? null, HOST_INFO, { openLinks: {}, serverTools: {}, logging: {} }, { hostContext });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.min(Math.max(height, 120), 900)}px`;
  };
  bridge.onopenlink = async ({ url }) => {
    log.refused.push({ openLink: url });
    throw new Error('This host opens no links.');
  };
  const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  // After connect, which sets its own forwarding: the specification's check on every call from a view.
  bridge.oncalltool = async (params) => {
    log.toolCalls.push({ name: params.name, arguments: params.arguments });
    return onCall(params);
  };
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
}

/** A call from the view, passed to the server only for a tool the view may call. */
async function forward(params) {
  const tool = tools.find((candidate) => candidate.name === params.name);
  const visibility = tool?._meta?.ui?.visibility ?? ['model', 'app'];
  if (!tool || !visibility.includes('app')) {
    log.refused.push({ tool: params.name });
    throw new Error(`The view may not call ${params.name}.`);
  }
  return client.callTool(params);
}

window.chatHost = {
  log,
  /** Connects as the MCP client `name`, declaring the extension, and lists the tools. */
  async connect(name) {
    client = new Client(
      { name, version: '1.0.0' },
      { capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } } },
    );
    await client.connect(new RelayTransport());
    tools = (await client.listTools()).tools;
    return tools.map((tool) => ({ name: tool.name, meta: tool._meta ?? null }));
  },
  /** Calls `name` as the model would, and renders the view it links to with its result. */
  async callAndShow(name, args) {
    const tool = tools.find((candidate) => candidate.name === name);
    const uri = tool?._meta?.ui?.resourceUri;
    if (!uri) throw new Error(`${name} links to no view`);
    const result = await client.callTool({ name, arguments: args });
    const read = await client.readResource({ uri });
    const content = read.contents[0];
    if (content.mimeType !== VIEW_MIME_TYPE) throw new Error(`${uri} is ${content.mimeType}`);
    await mount(content.text, content._meta?.ui?.csp, { onCall: forward, toolInput: args, toolResult: result });
    return result;
  },
  /** A tool call as the model makes it. */
  callTool(name, args = {}) {
    return client.callTool({ name, arguments: args });
  },
  /** The view with no server behind it: get-review-view answers `view` (the benchmark's host). */
  async showSynthetic(html, view) {
    client = undefined;
    tools = [];
    const answer = { content: [{ type: 'text', text: 'view' }], structuredContent: view };
    await mount(
      html,
      {},
      {
        onCall: async (params) => {
          if (params.name === 'get-review-view') return answer;
          throw new Error(`No server behind this host for ${params.name}`);
        },
        toolInput: {},
        toolResult: { content: [{ type: 'text', text: 'shown' }], structuredContent: { ...view, findings: [] } },
      },
    );
  },
  /** Tells the view the theme changed, with the style variables of that theme (or none). */
  async setTheme(theme, variables) {
    hostContext = { ...hostContext, theme, ...(variables ? { styles: { variables } } : {}) };
    await bridge?.sendHostContextChange({ theme, ...(variables ? { styles: { variables } } : {}) });
  },
};
