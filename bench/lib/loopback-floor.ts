import { once } from 'node:events';
import { createServer, connect, type AddressInfo } from 'node:net';

/**
 * Milliseconds to push `bytes` through a loopback TCP socket inside this process, 1 MB writes, nothing else: the
 * floor under any HTTP transfer measured the same way (the kernel copies the bytes into the socket and out again,
 * on the same two shared cores). The storage bench prints it beside the disk copy so the remaining factor can be
 * split into what TCP costs and what the service adds.
 */
export async function loopbackMs(bytes: number): Promise<number> {
  const server = createServer((socket) => {
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received >= bytes) socket.end('.');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const chunk = Buffer.alloc(1024 * 1024, 1);
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(socket, 'connect');
  const started = performance.now();
  const answered = once(socket, 'data');
  for (let sent = 0; sent < bytes; sent += chunk.byteLength) {
    if (!socket.write(chunk.subarray(0, Math.min(chunk.byteLength, bytes - sent)))) await once(socket, 'drain');
  }
  await answered;
  const elapsed = performance.now() - started;
  socket.destroy();
  server.close();
  return elapsed;
}
