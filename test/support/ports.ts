/** A free TCP port on the loopback interface (bind port 0, read it, close): for test servers, never a fixed port. */
import { createServer } from 'node:net';

/** A port that was free a moment ago on 127.0.0.1 (another process may take it: start servers with a retry). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
