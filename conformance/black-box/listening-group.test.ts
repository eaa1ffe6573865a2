// The listener of a port, told from /proc: a server of the process group answers for the target at once; another
// process's server, or a port no one listens on, is never taken for the target's.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupListensOn, listeningInodes } from './listening-group.ts';

const linux = process.platform === 'linux';

describe('listeningInodes', () => {
  it('reads the listening sockets of a port from /proc/net/tcp and tcp6, and nothing else', () => {
    const tables: Record<string, string> = {
      '/proc/net/tcp': [
        '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
        '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0 100 0 0 10 0',
        '   1: 0100007F:1F90 0100007F:E3AE 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0 100 0 0 10 0',
        '   2: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4444 1 0 100 0 0 10 0',
      ].join('\n'),
      '/proc/net/tcp6': [
        '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
        '   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4545 1 0 100 0 0 10 0',
      ].join('\n'),
    };
    // Port 0x1F90 = 8080: the IPv4 and IPv6 listeners, not the established connection nor the other port.
    expect(listeningInodes(8080, (path) => tables[path] ?? '')).toEqual(new Set(['4242', '4545']));
    expect(
      listeningInodes(8080, () => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });
});

describe.skipIf(!linux)('groupListensOn', () => {
  let stranger: Server;
  let strangerPort: number;
  beforeAll(async () => {
    stranger = createServer();
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    strangerPort = (stranger.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => stranger.close(() => resolve())));

  it("finds a server started in the group the group's, and this process's server not", async () => {
    // A shell leading its own group starts a server on a port of its choice and prints the port.
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        `exec ${JSON.stringify(process.execPath)} -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      const port = await new Promise<number>((resolve) => child.stdout.once('data', (data) => resolve(Number(String(data).trim()))));
      expect(groupListensOn(child.pid!, port)).toBe(true);
      // The group does not hold the stranger's port, and this process's group holds no listener of the child's.
      expect(groupListensOn(child.pid!, strangerPort)).toBe(false);
      expect(groupListensOn(process.pid, port)).toBe(false);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });

  it('cannot tell for a port no one listens on', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    expect(groupListensOn(process.pid, port)).toBeUndefined();
  });
});
