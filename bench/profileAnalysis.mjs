// Where the time of a window went, from the two profiles bench/windowProfile.mjs records: the
// extension host's V8 CPU profile (self time by where the code comes from, and the heaviest
// functions) and Chromium's trace of the workbench's renderer, which in code-server also runs the
// webviews (same origin, one main thread): busy time, self time by kind of work, and by frame.
// Times in the profiles and the trace are the same monotonic clock, in microseconds.

/** @typedef {{ from: number, to: number }} Window  µs on the monotonic clock */
/** @typedef {{ functionName: string, url: string, lineNumber: number }} CallFrame */

/** Where code of the extension host comes from, by its script's URL. @param {CallFrame} frame */
function hostOrigin(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (/redline-dev\.redline/.test(url)) return 'Redline';
  if (/\/lib\/vscode\/out\//.test(url)) return 'VS Code';
  if (/\/lib\/vscode\/extensions\//.test(url)) return 'built-in extensions';
  if (url.startsWith('node:')) return 'Node';
  return 'other';
}

/**
 * Self time (ms) in `window`, by origin and by function, from a V8 CPU profile.
 * @param {{ nodes: Array<{ id: number, callFrame: CallFrame }>, startTime: number, samples: number[], timeDeltas: number[] }} profile
 * @param {Window} window
 */
export function hostBreakdown(profile, window) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  /** @type {Map<string, number>} */
  const origins = new Map();
  /** @type {Map<string, number>} */
  const functions = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    if (at < window.from || at > window.to) continue;
    const frame = byId.get(profile.samples[i]);
    if (!frame) continue;
    const origin = hostOrigin(frame);
    origins.set(origin, (origins.get(origin) ?? 0) + next / 1000);
    if (origin === '(idle)') continue;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + next / 1000);
  }
  return { origins: sorted(origins), functions: sorted(functions).slice(0, 12), holds: longestHolds(profile, window) };
}

/**
 * The longest stretches in `window` when the host's thread was never idle (a gap of idle samples
 * under HOLD_GAP_US does not end one), with the heaviest functions of each: what an extension
 * calling into the host meanwhile waited for.
 * @param {{ nodes: Array<{ id: number, callFrame: CallFrame }>, startTime: number, samples: number[], timeDeltas: number[] }} profile
 * @param {Window} window
 */
function longestHolds(profile, window) {
  const HOLD_GAP_US = 2000;
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  /** @type {Array<{ from: number, to: number, functions: Map<string, number> }>} */
  const holds = [];
  /** @type {{ from: number, to: number, functions: Map<string, number> } | undefined} */
  let hold;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < window.from || at > window.to) continue;
    const frame = byId.get(profile.samples[i]);
    const idle = !frame || frame.functionName === '(idle)';
    if (idle) {
      if (hold && at - hold.to > HOLD_GAP_US) hold = undefined;
      continue;
    }
    if (!hold) holds.push((hold = { from: at, to: at, functions: new Map() }));
    const gap = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    hold.to = at + gap;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}`;
    hold.functions.set(name, (hold.functions.get(name) ?? 0) + gap / 1000);
  }
  return holds
    .sort((a, b) => b.to - b.from - (a.to - a.from))
    .slice(0, 3)
    .map((h) => ({
      atMs: (h.from - window.from) / 1000,
      ms: (h.to - h.from) / 1000,
      top: sorted(h.functions)
        .slice(0, 4)
        .map(([name, value]) => `${name} ${value.toFixed(0)} ms`),
    }));
}

/**
 * The renderer main thread's work in `window`: busy time, self time by event, and by frame.
 * @param {{ traceEvents: any[] }} trace @param {Window} whole
 */
export function rendererBreakdown(trace, whole) {
  const events = trace.traceEvents;
  // The trace may end before the window does (windowProfile.mjs bounds its length).
  let traceEnd = -Infinity;
  for (const event of events) if (typeof event.ts === 'number' && event.ts > traceEnd) traceEnd = event.ts;
  const window = { from: whole.from, to: Math.min(whole.to, traceEnd) };
  const mainThreads = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const frames = frameUrls(events);
  /** @type {Map<string, Array<{ name: string, ts: number, end: number, frame?: string }>>} */
  const byThread = new Map();
  /** @type {Map<string, any[]>} open B events per thread */
  const open = new Map();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (!mainThreads.has(thread)) continue;
    let span;
    if (event.ph === 'X' && typeof event.dur === 'number')
      span = { name: event.name, ts: event.ts, end: event.ts + event.dur, frame: frameOf(event) };
    else if (event.ph === 'B') (open.get(thread) ?? open.set(thread, []).get(thread)).push(event);
    else if (event.ph === 'E') {
      const begin = open.get(thread)?.pop();
      if (begin) span = { name: begin.name, ts: begin.ts, end: event.ts, frame: frameOf(begin) ?? frameOf(event) };
    }
    if (!span || span.end < window.from || span.ts > window.to) continue;
    (byThread.get(thread) ?? byThread.set(thread, []).get(thread)).push(span);
  }
  // The thread that worked most in the window is the workbench's (and its webviews').
  const [thread, spans = []] = [...byThread].sort((a, b) => busy(b[1]) - busy(a[1]))[0] ?? [];
  spans.sort((a, b) => a.ts - b.ts || b.end - a.end);
  /** @type {Map<string, number>} */
  const selfByName = new Map();
  /** @type {Map<string, number>} */
  const selfByFrame = new Map();
  /** @type {Array<{ span: typeof spans[number], children: number }>} */
  const stack = [];
  const close = (/** @type {{ span: typeof spans[number], children: number }} */ entry) => {
    const self = Math.max(0, clip(entry.span, window) - entry.children) / 1000;
    selfByName.set(entry.span.name, (selfByName.get(entry.span.name) ?? 0) + self);
    const where = frames.get(entry.span.frame ?? '') ?? 'the workbench or unknown';
    selfByFrame.set(where, (selfByFrame.get(where) ?? 0) + self);
  };
  for (const span of spans) {
    while (stack.length && stack[stack.length - 1].span.end <= span.ts) close(/** @type {any} */ (stack.pop()));
    if (stack.length) {
      stack[stack.length - 1].children += clip(span, window);
      // A child with no frame of its own is its parent's work.
      span.frame ??= stack[stack.length - 1].span.frame;
    }
    stack.push({ span, children: 0 });
  }
  while (stack.length) close(/** @type {any} */ (stack.pop()));
  const tasks = spans.filter((span) => span.name === 'RunTask' || span.name === 'ThreadControllerImpl::RunTask');
  const longest = tasks.reduce((most, span) => Math.max(most, span.end - span.ts), 0) / 1000;
  return {
    thread,
    js: thread ? jsBreakdown(events, thread, window) : [],
    busyMs: busy(spans) / 1000,
    windowMs: (window.to - window.from) / 1000,
    longestTaskMs: longest,
    byName: sorted(selfByName).slice(0, 14),
    byFrame: sorted(selfByFrame),
  };
}

/**
 * JavaScript self time (ms) on `thread` in `window`, by function, from the trace's V8 samples
 * (the `disabled-by-default-v8.cpu_profiler` category).
 * @param {any[]} events @param {string} thread @param {Window} window
 */
function jsBreakdown(events, thread, window) {
  /** @type {Map<string, { nodes: Map<number, CallFrame>, at: number }>} */
  const profiles = new Map();
  /** @type {Map<string, number>} */
  const self = new Map();
  // A profile starts on the thread it samples; its chunks come from the profiler's own thread.
  for (const event of events) {
    if (event.name === 'Profile' && `${event.pid}:${event.tid}` === thread)
      profiles.set(`${event.pid}:${event.id}`, { nodes: new Map(), at: event.args.data.startTime });
    if (event.name !== 'ProfileChunk') continue;
    const profile = profiles.get(`${event.pid}:${event.id}`);
    const data = event.args?.data;
    if (!profile || !data) continue;
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node.callFrame);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      profile.at += deltas[i] ?? 0;
      const gap = deltas[i + 1] ?? 0;
      if (profile.at < window.from || profile.at > window.to) continue;
      const frame = profile.nodes.get(samples[i]);
      if (!frame || ['(idle)', '(root)', '(program)'].includes(frame.functionName)) continue;
      const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url).split('?')[0]}${frame.url ? `:${frame.lineNumber + 1}:${(frame.columnNumber ?? 0) + 1}` : ''}`;
      self.set(name, (self.get(name) ?? 0) + gap / 1000);
    }
  }
  return sorted(self).slice(0, 16);
}

/** Time covered by top-level tasks. @param {Array<{ name: string, ts: number, end: number }>} spans */
function busy(spans) {
  let total = 0;
  let until = -Infinity;
  for (const span of [...spans].sort((a, b) => a.ts - b.ts)) {
    if (span.name !== 'RunTask' && span.name !== 'ThreadControllerImpl::RunTask') continue;
    const from = Math.max(span.ts, until);
    if (span.end > from) total += span.end - from;
    until = Math.max(until, span.end);
  }
  return total;
}

/** @param {{ ts: number, end: number }} span @param {Window} window */
function clip(span, window) {
  return Math.max(0, Math.min(span.end, window.to) - Math.max(span.ts, window.from));
}

/** Frame ids to a readable name: Redline's panel or another webview, or the workbench. @param {any[]} events */
function frameUrls(events) {
  /** @type {Map<string, string>} */
  const names = new Map();
  const name = (/** @type {string} */ url) =>
    /webview\/browser\/pre\/fake\.html/.test(url)
      ? 'a webview (its content frame)'
      : /webview\/browser\/pre\/index\.html/.test(url)
        ? "a webview's host frame"
        : /webWorkerExtensionHost/.test(url)
          ? 'the web extension host frame'
          : 'the workbench';
  for (const event of events) {
    const data = event.args?.data;
    if (event.name === 'TracingStartedInBrowser')
      for (const frame of data?.frames ?? []) names.set(frame.frame, name(frame.url ?? ''));
    if ((event.name === 'FrameCommittedInBrowser' || event.name === 'CommitLoad') && data?.frame)
      names.set(data.frame, name(data.url ?? ''));
  }
  return names;
}

/** @param {any} event */
function frameOf(event) {
  const args = event.args ?? {};
  return args.data?.frame ?? args.beginData?.frame ?? args.frame ?? undefined;
}

/** @param {Map<string, number>} totals */
function sorted(totals) {
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** @param {string} url */
function shortUrl(url) {
  if (!url) return '';
  const path = url.replace(/^file:\/\//, '');
  const parts = path.split('/');
  return parts.slice(-2).join('/');
}
