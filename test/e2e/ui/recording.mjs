// A recording of the workbench for the README's moving picture: chromium's screencast of the page
// (every frame it paints, webviews included, with its time), a caption bar and a pointer drawn over
// the workbench, since a headless page shows no mouse. The frames and their times go to a folder;
// scripts/readme-screenshots.mjs assembles them into a GIF with ffmpeg.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '../harness/processes.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

const OVERLAY_STYLE = `
  #readme-caption { position: fixed; left: 50%; bottom: 36px; transform: translateX(-50%); z-index: 2147483647;
    pointer-events: none; max-width: 80%; padding: 8px 16px; border-radius: 8px; font: 600 16px/1.35 system-ui, sans-serif;
    color: #fff; background: rgba(20, 20, 30, 0.88); box-shadow: 0 4px 16px rgba(0, 0, 0, 0.35); transition: opacity 0.2s; }
  #readme-caption small { display: block; margin-top: 4px; font: 400 13px/1.35 ui-monospace, monospace; color: #d6e4ff; }
  #readme-pointer { position: fixed; left: 0; top: 0; z-index: 2147483647; pointer-events: none; width: 22px; height: 22px;
    transition: transform 0.6s ease-in-out; }
  #readme-pointer.click::after { content: ''; position: absolute; left: -9px; top: -9px; width: 18px; height: 18px;
    border-radius: 50%; border: 3px solid #f0b400; }
`;
const POINTER_SVG =
  '<svg viewBox="0 0 22 22" width="22" height="22"><path d="M2 1 L2 18 L7 13.5 L10.5 21 L13.5 19.7 L10 12.3 L16.5 12.3 Z" fill="#111" stroke="#fff" stroke-width="1.5"/></svg>';

export class Recording {
  /** @type {Array<{ file: string, at: number }>} */
  frames = [];

  /** @param {Page} page @param {string} dir */
  constructor(page, dir) {
    this.page = page;
    this.dir = dir;
  }

  /** Starts the screencast and draws the caption bar and the pointer (hidden until used). */
  async start() {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    await this.page.evaluate(
      ({ style, svg }) => {
        const sheet = document.createElement('style');
        sheet.textContent = style;
        document.head.append(sheet);
        const caption = Object.assign(document.createElement('div'), { id: 'readme-caption' });
        caption.style.opacity = '0';
        const pointer = Object.assign(document.createElement('div'), { id: 'readme-pointer', innerHTML: svg });
        pointer.style.transform = `translate(${innerWidth * 0.3}px, ${innerHeight * 0.6}px)`;
        document.body.append(caption, pointer);
      },
      { style: OVERLAY_STYLE, svg: POINTER_SVG },
    );
    this.cdp = await this.page.context().newCDPSession(this.page);
    this.cdp.on('Page.screencastFrame', ({ data, metadata, sessionId }) => {
      const file = join(this.dir, `frame-${String(this.frames.length).padStart(5, '0')}.jpg`);
      writeFileSync(file, Buffer.from(data, 'base64'));
      this.frames.push({ file, at: metadata.timestamp ?? Date.now() / 1000 });
      void this.cdp?.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
    });
    await this.cdp.send('Page.startScreencast', { format: 'jpeg', quality: 90, everyNthFrame: 1 });
  }

  /**
   * Shows `text` (and a monospace line below it) in the caption bar.
   * @param {string} text @param {string} [detail]
   */
  async caption(text, detail) {
    await this.page.evaluate(
      ({ text, detail }) => {
        const caption = /** @type {HTMLElement} */ (document.getElementById('readme-caption'));
        caption.textContent = text;
        if (detail) caption.append(Object.assign(document.createElement('small'), { textContent: detail }));
        caption.style.opacity = '1';
      },
      { text, detail },
    );
  }

  /** Moves the drawn pointer onto `target` (in any frame), then clicks it as a user would. @param {Locator} target */
  async click(target) {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error('the element to click is not on screen');
    const [x, y] = [box.x + Math.min(box.width / 2, 40), box.y + box.height / 2];
    await this.page.evaluate(
      ({ x, y }) => {
        const pointer = /** @type {HTMLElement} */ (document.getElementById('readme-pointer'));
        pointer.classList.remove('click');
        pointer.style.transform = `translate(${x}px, ${y}px)`;
      },
      { x, y },
    );
    await sleep(700);
    await this.page.evaluate(() => document.getElementById('readme-pointer')?.classList.add('click'));
    await target.click();
  }

  /** A pause the viewer needs to read what changed: frames are painted only on change, so the GIF holds the last one. */
  hold(ms) {
    return sleep(ms);
  }

  /**
   * Stops the screencast, removes the overlay, and writes `frames.txt`: ffmpeg's concat list, each
   * frame with how long it stayed on screen. @returns {Promise<{ frames: number, seconds: number }>}
   */
  async stop() {
    const stoppedAt = Date.now() / 1000;
    await this.cdp?.send('Page.stopScreencast').catch(() => {});
    await this.cdp?.detach().catch(() => {});
    await this.page.evaluate(() => {
      document.getElementById('readme-caption')?.remove();
      document.getElementById('readme-pointer')?.remove();
    });
    const lines = this.frames.flatMap(({ file, at }, index) => {
      const next = this.frames[index + 1]?.at ?? Math.max(stoppedAt, at + 0.1);
      return [`file '${file}'`, `duration ${Math.max(0.01, next - at).toFixed(3)}`];
    });
    // The concat demuxer takes the last file's duration only when it is listed again.
    if (this.frames.length > 0) lines.push(`file '${this.frames[this.frames.length - 1].file}'`);
    writeFileSync(join(this.dir, 'frames.txt'), `${lines.join('\n')}\n`);
    const first = this.frames[0]?.at ?? stoppedAt;
    return { frames: this.frames.length, seconds: stoppedAt - first };
  }
}
