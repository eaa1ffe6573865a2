// Instances started side by side each pick a port before any of them listens: the picks must differ, or the second
// target exits with EADDRINUSE (seen in a default black-box run: one spare fewer, a run 30 % longer).
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ensurePortFree, freePort } from './ports.ts';

describe('freePort', () => {
  it('never hands out one port twice, even to callers asking at the same instant', async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(40);
    // Picked one after another (each probe closed before the next), too: the kernel may offer a port just closed again.
    const more: number[] = [];
    for (let i = 0; i < 40; i++) more.push(await freePort());
    expect(new Set([...ports, ...more]).size).toBe(80);
  });

  it('hands out a port nothing listens on', async () => {
    const port = await freePort();
    await expect(ensurePortFree(port)).resolves.toBeUndefined();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      await expect(ensurePortFree(port)).rejects.toThrow(`port ${port} on 127.0.0.1 is already taken`);
    } finally {
      taken.close();
    }
  });
});
