// Crucible: inside a box, put the host's egress proxy (a Unix socket, src/sandbox/egress.ts) on a loopback TCP
// port, for clients that only speak TCP proxies (npm's https-proxy). Trusted: started by Crucible's install
// script before the client. Usage: forward.cjs PORT SOCKET READY_FILE — writes READY_FILE once listening.
'use strict';
const net = require('net');
const fs = require('fs');
const [port, socketPath, readyFile] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
});
server.listen(Number(port), '127.0.0.1', () => fs.writeFileSync(readyFile, 'ready\n'));
