// The window's socket before the token: a peer that has not said a valid hello may neither make
// the window buffer much nor stay connected for long, and the assistant is unaffected by either.
const assert = require('node:assert/strict');
const net = require('node:net');
const { connectPackagedMcp, redline, terminalIpcEnv } = require('./helpers');

/** Past the 64 KiB a connection may send before its hello is accepted. */
const FLOOD_BYTES = 256 * 1024;
/** The server must cut a silent peer off after 5 s; this only bounds the wait. */
const CLOSE_CAP_MS = 10_000;

/**
 * A raw connection to the bridge socket that reads (and ignores) whatever the server sends, and
 * records when the server ends it. Nothing here ever closes it from our side before `closed`.
 * @param {string} socketPath
 */
async function rawPeer(socketPath) {
  const socket = net.connect(socketPath);
  /** @type {Error[]} */
  const errors = [];
  // Writing to a socket the server has just cut gives EPIPE/ECONNRESET: that is the expected end.
  socket.on('error', (error) => errors.push(error));
  const closed = new Promise((resolve) => socket.once('close', () => resolve(Date.now())));
  let isClosed = false;
  void closed.then(() => {
    isClosed = true;
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.resume();
  return {
    socket,
    errors,
    /** Resolves with the time of the close, or rejects after `capMs`. @param {string} what @param {number} capMs */
    closedWithin(what, capMs) {
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      const cap = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The server kept ${what} open for ${capMs / 1000} s`)), capMs);
      });
      return Promise.race([closed, cap]).finally(() => clearTimeout(timer));
    },
    isClosed: () => isClosed,
  };
}

describe('The bridge socket before a hello', () => {
  /** @type {string} */
  let socketPath;
  const peers = /** @type {Array<Awaited<ReturnType<typeof rawPeer>>>} */ ([]);

  before(async () => {
    await redline();
    const env = await terminalIpcEnv();
    socketPath = /** @type {string} */ (env.REDLINE_IPC_PATH);
    assert.ok(socketPath, 'a terminal has REDLINE_IPC_PATH');
  });

  afterEach(() => {
    for (const peer of peers.splice(0)) peer.socket.destroy();
  });

  it('cuts off a peer that sends more than 64 KiB without a hello, sooner than a silent one', async function () {
    // Both connect together: the silent one is the control, which only the 5 s limit may end.
    const silent = await rawPeer(socketPath);
    const flooding = await rawPeer(socketPath);
    peers.push(silent, flooding);
    // One unterminated line, so that only the byte budget (not an invalid line) can end it.
    flooding.socket.write(Buffer.alloc(FLOOD_BYTES, 'a'));
    await flooding.closedWithin('a connection that sent 256 KiB without a hello', CLOSE_CAP_MS);
    assert.equal(
      silent.isClosed(),
      false,
      'the flood was cut for its size, before the silent control hit the time limit',
    );
  });

  it('cuts off a peer that connects and says nothing', async function () {
    const silent = await rawPeer(socketPath);
    peers.push(silent);
    // Rejects, and fails the test, if the server still holds it after the cap.
    await silent.closedWithin('a connection that sent nothing', CLOSE_CAP_MS);
  });

  it('still answers an assistant after both were cut off', async () => {
    const { extension } = await redline();
    const mcp = await connectPackagedMcp(extension);
    try {
      const { editor } = await mcp.call('get-selection');
      assert.ok(editor === null || typeof editor.lineCount === 'number', 'get-selection answered');
    } finally {
      await mcp.close();
    }
  });
});
