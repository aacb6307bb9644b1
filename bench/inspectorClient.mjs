// A Node inspector session over its WebSocket (the extension host's, which code-server opens on
// the port of the workbench's `inspect-extensions` payload): send a method, get its result.
// Needs a global WebSocket (Node 22+, or Node 20 with --experimental-websocket).

export class InspectorClient {
  /** @type {WebSocket} */
  #socket;
  #nextId = 1;
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
  #pending = new Map();

  /** @param {WebSocket} socket */
  constructor(socket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data));
      const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!waiting) return;
      this.#pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${message.error.message} (${message.error.code})`));
      else waiting.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const { reject } of this.#pending.values()) reject(new Error('the inspector closed'));
      this.#pending.clear();
    });
  }

  /**
   * Connects to the first target of the inspector on 127.0.0.1:`port`, retrying until `timeoutMs`.
   * @param {number} port @param {number} [timeoutMs]
   */
  static async connect(port, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
        const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
        await new Promise((resolve, reject) => {
          socket.addEventListener('open', resolve, { once: true });
          socket.addEventListener('error', () => reject(new Error('could not open the inspector socket')), {
            once: true,
          });
        });
        return new InspectorClient(socket);
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`No inspector on port ${port}: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  /** @param {string} method @param {object} [params] @returns {Promise<any>} */
  send(method, params = {}) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close() {
    this.#socket.close();
  }
}
