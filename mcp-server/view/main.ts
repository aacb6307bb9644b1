// The review's view in a chat (an MCP App): it shows the review a tool returned, then what the
// window has of it, and carries the user's clicks to the server through the host, which may ask the
// user first: a finding's place opens the editor there (open-location, contained to the workspace
// as a model's call is), and Resolve, Won't fix and a reply are recorded as the user's answers.

import { App, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { MAX_FEEDBACK_TEXT } from '../../shared/findingTerms';
import { placeText, renderReview, replaceRow, rowOf, type RowAction } from './findingList';
import { applyHostTheme } from './hostTheme';
import { failureText, parseReviewView, viewFromToolResult, type ReviewView } from './viewData';

const root = document.body;
const list = root.querySelector<HTMLOListElement>('#findings')!;
const status = root.querySelector<HTMLElement>('#status')!;
const app = new App({ name: 'redline-review', version: '1' }, {}, { autoResize: true });
let view: ReviewView | undefined;

function show(next: ReviewView): void {
  view = next;
  renderReview(root, next);
}

function say(text: string, state: 'connected' | 'disconnected' | 'busy'): void {
  status.textContent = text;
  status.dataset.state = state;
}

/** Runs a server tool through the host; a refusal or a failure is said in the status line. */
async function call(name: string, args: Record<string, unknown>): Promise<unknown> {
  try {
    const result = await app.callServerTool({ name, arguments: args });
    if (result.isError) {
      say(failureText(result.content), 'disconnected');
      return undefined;
    }
    return result.structuredContent ?? {};
  } catch (error) {
    say(
      `The chat did not pass the call on: ${String((error as Error)?.message ?? error).slice(0, 300)}`,
      'disconnected',
    );
    return undefined;
  }
}

async function refresh(): Promise<void> {
  const answer = await call('get-review-view', {});
  if (answer === undefined) return;
  const next = parseReviewView(answer);
  if (!next) return say('VS Code answered with something the view cannot read.', 'disconnected');
  show(next);
  const window = (answer as { window?: unknown }).window;
  say(
    typeof window === 'string' ? `Connected to VS Code: ${window.slice(0, 200)}` : 'Connected to VS Code',
    'connected',
  );
}

async function act(action: RowAction, row: HTMLElement, id: string): Promise<void> {
  const finding = view?.findings.find((candidate) => candidate.id === id);
  if (!finding) return;
  switch (action) {
    case 'open':
      if ((await call('open-location', { reference: placeText(finding) })) !== undefined)
        say(`Opened ${placeText(finding)} in VS Code`, 'connected');
      return;
    case 'reply':
      return toggleReplyBox(row);
    case 'send': {
      const box = row.querySelector<HTMLTextAreaElement>('textarea');
      const text = box?.value.trim() ?? '';
      if (text === '') return;
      return answer(id, { reply: text });
    }
    default:
      return answer(id, { state: action === 'reopen' ? 'open' : action });
  }
}

async function answer(id: string, args: { state?: string; reply?: string }): Promise<void> {
  const answered = await call('answer-finding', { findingId: id, ...args });
  if (answered === undefined) return;
  // The window's own list says where everything stands now, the replies counted.
  await refresh();
  const finding = view?.findings.find((candidate) => candidate.id === id);
  if (finding) replaceRow(list, finding);
}

function toggleReplyBox(row: HTMLElement): void {
  const open = row.querySelector('.reply-box');
  if (open) return open.remove();
  const box = document.createElement('div');
  box.className = 'reply-box';
  const input = document.createElement('textarea');
  input.maxLength = MAX_FEEDBACK_TEXT;
  input.rows = 3;
  input.setAttribute('aria-label', 'Your reply to the finding');
  const send = document.createElement('button');
  send.type = 'button';
  send.className = 'action';
  send.dataset.action = 'send';
  send.textContent = 'Send reply';
  box.append(input, send);
  row.append(box);
  input.focus();
}

list.addEventListener('click', (event) => {
  const target = (event.target as Element).closest<HTMLButtonElement>('button[data-action]');
  const row = target?.closest<HTMLElement>('li.finding');
  const id = row?.dataset.id;
  if (!target || !row || id === undefined || rowOf(list, id) !== row) return;
  void act(target.dataset.action as RowAction, row, id);
});
root.querySelector('#open-in-redline')!.addEventListener('click', () => {
  void call('reveal-review', {}).then((shown) => shown !== undefined && say('Shown in VS Code', 'connected'));
});
root.querySelector('#refresh')!.addEventListener('click', () => void refresh());

app.ontoolresult = (result) => {
  const first = viewFromToolResult(result.structuredContent);
  if (!first || first.revision === view?.revision) return;
  if (!view) show(first);
  void refresh();
};
app.onhostcontextchanged = (context: McpUiHostContext) => applyHostTheme(context);

say('Connecting to the chat…', 'busy');
app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => {
    applyHostTheme(app.getHostContext());
    say('Waiting for VS Code…', 'busy');
    void refresh();
  },
  (error: unknown) => say(`The chat did not connect the view: ${String(error).slice(0, 300)}`, 'disconnected'),
);
