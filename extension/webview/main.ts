// The review panel's webview script: paints what the host sends and keeps the scroll position
// across updates and reloads. It is the page's entry, wiring its parts to the host's messages:
// the findings (findingMarks.ts), the history (historyControls.ts), the tabs (tabs.ts), the message
// box (messageBox.ts), the Copy button (copyButton.ts), a long page's slices (pageStream.ts), the
// diagrams, and the link clicks (linkClicks.ts), which make sure nothing in the webview navigates.

import {
  NO_REVIEW_REVISION,
  type AppendMessage,
  type RenderMessage,
  type SliceMessage,
  type WebviewToHostMessage,
} from '../src/panel/webviewMessages';
import { CodeHighlighting } from './codeHighlighting';
import { CopyButton } from './copyButton';
import { FindingMarks } from './findingMarks';
import { HistoryControls } from './historyControls';
import { asHostMessage } from './hostMessages';
import { ReviewTabs } from './tabs';
import { MermaidDiagrams } from './mermaidDiagrams';
import { interceptLinkClicks } from './linkClicks';
import { answerFocusQuestions } from './userMoves';
import { MessageBox } from './messageBox';
import { PageStream } from './pageStream';
import { ReviewPages } from './pageSwap';
import { currentPlace, goTo, RenderPlaces, saveOnScroll, type StateStore } from './persistedState';

interface WebviewApi extends StateStore {
  postMessage(message: WebviewToHostMessage): void;
}

declare function acquireVsCodeApi(): WebviewApi;

const vscode = acquireVsCodeApi();

/** Past this much HTML a review's slices are laid out only near the screen (see `.redline-long` in review.css). */
const LONG_REVIEW_HTML = 256 * 1024;

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) {
    throw new Error(`Redline: the webview document has no #${id}`);
  }
  return found;
}

const titleText = element('title', HTMLElement);
const revisionText = element('revision', HTMLElement);
const copyButton = new CopyButton(element('copy', HTMLButtonElement), (message) => post(message));
const emptyState = element('empty', HTMLElement);
const reviewBody = element('review', HTMLElement);
const announcer = element('announcer', HTMLElement);
/** The page that holds the review shown; a new review gets a new one, and the old one goes in the background. */
const pages = new ReviewPages(reviewBody);
const findingMarks = new FindingMarks({
  root: reviewBody,
  post: (message) => post(message),
  announce: (text) => announce(announcer, text),
  page: () => pages.shown,
  slices: () => pages.slices(),
});
// While this script runs: the renderer's address and the nonce are on its <script> element.
const diagrams = MermaidDiagrams.forPage(reviewBody, () => pages.shown);
const codeHighlighting = CodeHighlighting.forPage(reviewBody);
const reviewTabs = new ReviewTabs(element('tabs', HTMLElement), (message) => post(message));
const historyControls = new HistoryControls(
  {
    picker: element('history', HTMLSelectElement),
    compare: element('compare', HTMLButtonElement),
    banner: element('earlier', HTMLElement),
    bannerText: element('earlier-text', HTMLElement),
    restore: element('restore', HTMLButtonElement),
    back: element('back', HTMLButtonElement),
    comparison: element('comparison', HTMLElement),
  },
  (message) => post(message),
);
const messageBox = new MessageBox({
  input: element('message', HTMLTextAreaElement),
  send: element('send', HTMLButtonElement),
  status: element('send-status', HTMLElement),
  post: (message) => post(message),
});

let shownRevision = NO_REVIEW_REVISION;
const places = new RenderPlaces(vscode);

function saveState(): void {
  const { scrollX: _, ...place } = currentPlace(reviewBody);
  vscode.setState({ revision: shownRevision, ...place });
}

function post(message: WebviewToHostMessage): void {
  vscode.postMessage(message);
}

/** Runs `then` once the current frame has been painted. */
function afterPaint(then: () => void): void {
  requestAnimationFrame(() => setTimeout(then, 0));
}

/** Acknowledges once the frame has been painted, which lets the host send the next render. */
function acknowledge(revision: number): void {
  afterPaint(() => post({ type: 'rendered', revision }));
}

function setTitle(text: string): void {
  titleText.textContent = text;
  titleText.title = text;
}

/** A long page's slices, and appends behind them, each added in a task of its own. */
const pageStream = new PageStream();
/** What the page that is arriving does once its last slice is in. */
let finishPage: () => void = () => undefined;

/** Adds a slice of the review to the page shown; its findings are marked and its code highlighted as it nears the screen. */
function addToPage(html: string): void {
  if (html === '') return;
  // Trusted: the host renders with markdown-it (`html: false`) and the CSP blocks inline script.
  const slice = pages.add(html);
  findingMarks.added(slice);
  codeHighlighting.watch(slice);
}

function showReview(message: RenderMessage): void {
  pageStream.reset();
  codeHighlighting.reset();
  findingMarks.reset();
  // A preview is too short to scroll to a saved place in; the whole review that follows restores it.
  const place = places.opening(message.revision, message.preview === true);
  // The old page is hidden in one step, however large, and taken apart after the new one is shown.
  const page = pages.replace();
  page.classList.toggle('redline-long', message.more === true || message.html.length > LONG_REVIEW_HTML);
  addToPage(message.html);
  reviewBody.hidden = false;
  emptyState.hidden = true;
  showHeader(message);
  copyButton.enabled = true;
  goTo(place, page);
  const finish = () => {
    diagrams.update();
    places.whole(place, page);
    shownRevision = message.revision;
    historyControls.shown(message.revision);
    saveState();
    acknowledge(message.revision);
  };
  if (!message.more) {
    finish();
    return;
  }
  // The first slice is on screen; the others follow, each in a task of its own, posted as this takes them.
  post({ type: 'sliceAdded', revision: message.revision });
  finishPage = finish;
  pageStream.expect(message.revision);
}

function addSlice(message: SliceMessage): void {
  const add = () => {
    addToPage(message.html);
    if (!message.last) post({ type: 'sliceAdded', revision: message.revision });
  };
  pageStream.slice(message, { add, done: () => finishPage() });
}

/** Adds an append's new part below what is shown; nothing above it is parsed or painted again. */
function appendReview(message: AppendMessage): void {
  // After the slices of the page it follows.
  if (pageStream.busy) pageStream.enqueue(() => addAppend(message));
  else addAppend(message);
}

function addAppend(message: AppendMessage): void {
  if (message.fromRevision !== shownRevision) {
    // This document does not hold what the append follows (it was reloaded meanwhile): ask for all.
    post({ type: 'ready' });
    return;
  }
  if (message.html.length > LONG_REVIEW_HTML) pages.current.classList.add('redline-long');
  addToPage(message.html);
  diagrams.update();
  showHeader(message);
  shownRevision = message.revision;
  historyControls.shown(message.revision);
  saveState();
  acknowledge(message.revision);
}

function showHeader(message: RenderMessage | AppendMessage): void {
  setTitle(message.title || 'Untitled review');
  revisionText.textContent = message.origin
    ? `Revision ${message.revision} · from ${message.origin}`
    : `Revision ${message.revision}`;
}

function showEmpty(): void {
  pageStream.reset();
  codeHighlighting.reset();
  findingMarks.reset();
  pages.clear();
  reviewBody.hidden = true;
  emptyState.hidden = false;
  setTitle('No review');
  revisionText.textContent = '';
  copyButton.enabled = false;
  places.forget();
  shownRevision = NO_REVIEW_REVISION;
  historyControls.shown(undefined);
  saveState();
  acknowledge(NO_REVIEW_REVISION);
}

/** Says `text` through the live region, again even when it is the same as last time. */
function announce(region: HTMLElement, text: string): void {
  region.textContent = '';
  requestAnimationFrame(() => (region.textContent = text));
}

interceptLinkClicks(document, post);
answerFocusQuestions(post);

saveOnScroll(saveState);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = asHostMessage(event.data);
  if (!message) {
    return;
  }
  switch (message.type) {
    case 'render':
      showReview(message);
      return;
    case 'slice':
      addSlice(message);
      return;
    case 'append':
      appendReview(message);
      return;
    case 'empty':
      showEmpty();
      return;
    case 'copied':
      copyButton.copied();
      return;
    case 'copyFailed':
      copyButton.failed(message.message);
      return;
    case 'findings':
      findingMarks.update(message.marks);
      return;
    case 'showFinding':
      findingMarks.show(message.id);
      return;
    case 'messageResult':
      messageBox.result(message);
      return;
    case 'history':
      historyControls.update(message);
      findingMarks.setReadOnly(message.viewing !== undefined);
      return;
    case 'comparison':
      historyControls.showComparison(message);
      return;
    case 'tabs':
      reviewTabs.update(message);
      return;
    default: {
      const unexpected: never = message;
      return unexpected;
    }
  }
});

post({ type: 'ready' });
