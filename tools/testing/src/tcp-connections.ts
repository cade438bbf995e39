import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The local ports of process `pid`'s TCP connections to `remotePort` on IPv4 loopback (Linux: /proc), so that a test
 * can tell which of several processes a server's peer is, e.g. which instance an attempt in flight came from.
 */
export function localPortsTo(pid: number, remotePort: number): number[] {
  const sockets = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) sockets.add(inode);
    } catch {
      // Closed between the listing and the look.
    }
  }
  const ports: number[] = [];
  // Each line: sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, , , , , , , inode] = line.trim().split(/\s+/);
    if (inode && sockets.has(inode) && parseInt(remote.split(':')[1], 16) === remotePort) ports.push(parseInt(local.split(':')[1], 16));
  }
  return ports;
}
