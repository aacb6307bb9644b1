import { createServer, connect } from 'net';
import { TimeSlices, yieldThread } from '../../shared/threadYield';

describe('yieldThread', () => {
  it('lets input that arrived meanwhile be read, even when called from an I/O callback', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = connect(port, '127.0.0.1');
    const socket = await new Promise<import('net').Socket>((resolve) => server.once('connection', resolve));
    try {
      const seen: string[] = [];
      socket.on('data', (data) => seen.push(data.toString()));
      const afterYield = new Promise<string[]>((resolve) => {
        // From inside an I/O callback, as a render step triggered by a request is.
        client.once('data', async () => {
          // A loopback write reaches the peer's socket buffer within the call.
          client.write('cancel');
          await yieldThread();
          resolve([...seen]);
        });
      });
      socket.write('go');
      const read = await afterYield;
      expect(read).toEqual(['cancel']);
    } finally {
      client.destroy();
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("stops with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    await expect(yieldThread(controller.signal)).rejects.toThrow('cancelled by the user');
  });
});

describe('TimeSlices', () => {
  it('yields only once a slice has used its time', async () => {
    const slices = new TimeSlices(1_000_000);
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    await slices.yieldIfDue();
    expect(ranBetween).toBe(false);

    const due = new TimeSlices(0);
    await due.yieldIfDue();
    expect(ranBetween).toBe(true);
  });
});
