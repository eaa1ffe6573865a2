// Whose is the socket listening on a port? On Linux /proc says: /proc/net/tcp{,6} list the listening sockets with
// their inodes, and /proc/<pid>/fd links each open socket to its inode. A target the suite started answers on its port
// at once when every socket listening there belongs to its process group. Otherwise (another process took the port the
// target then fails to bind; a listener outside the group, such as a container's port proxy; a system without /proc)
// the caller waits a moment to see the target stay up, as before.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const LISTEN = '0A';

/** The inodes of the TCP sockets listening on `port` (IPv4 and IPv6), or undefined when /proc/net cannot be read. */
export function listeningInodes(
  port: number,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): Set<string> | undefined {
  const inodes = new Set<string>();
  let readable = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = read(table);
      readable = true;
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      const localPort = Number.parseInt(fields[1]!.split(':').at(-1) ?? '', 16);
      if (localPort === port && fields[9] !== '0') inodes.add(fields[9]!);
    }
  }
  return readable ? inodes : undefined;
}

/** The socket inodes held open by the processes of process group `group`. */
function groupSocketInodes(group: number): Set<string> {
  const inodes = new Set<string>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // The fields after the command name (which may hold spaces and parentheses): state, ppid, pgrp, ...
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== group) continue;
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (link.startsWith('socket:[')) inodes.add(link.slice(8, -1));
      }
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return inodes;
}

/**
 * True when every socket listening on `port` belongs to process group `group`, false when one belongs to another
 * process, undefined when /proc cannot tell (no /proc/net, or no listening socket visible in this network namespace).
 */
export function groupListensOn(group: number, port: number): boolean | undefined {
  const listening = listeningInodes(port);
  if (!listening || listening.size === 0) return undefined;
  const own = groupSocketInodes(group);
  return [...listening].every((inode) => own.has(inode));
}
