import { describe, expect, it } from 'vitest';
import { ChainsHold } from './chains-hold.ts';

/** A hold over a fake set of open pages (owner per page). */
function setup() {
  const pages = new Map<string, string>();
  const hold = new ChainsHold(() => pages.values());
  const open = (page: string, owner: string) => pages.set(page, owner);
  const close = (page: string) => {
    pages.delete(page);
    hold.changed();
  };
  return { hold, open, close };
}

/** Whether a promise has settled after the pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe('ChainsHold', () => {
  it("waits for the other checks' open pages before it holds", async () => {
    const { hold, open, close } = setup();
    open('p1', 'a');
    const held = hold.hold('b');
    expect(await settled(held)).toBe(false);
    close('p1');
    expect(await settled(held)).toBe(true);
  });

  it('waits for a page still opening (its wallet is being funded)', async () => {
    const { hold } = setup();
    const opened = await hold.beforeOpen('a');
    const held = hold.hold('b');
    expect(await settled(held)).toBe(false);
    opened();
    expect(await settled(held)).toBe(true);
  });

  it('keeps the other checks from opening until released; the holder opens its own', async () => {
    const { hold } = setup();
    const release = await hold.hold('b');
    const other = hold.beforeOpen('a');
    expect(await settled(other)).toBe(false);
    expect(await settled(hold.beforeOpen('b'))).toBe(true);
    release();
    expect(await settled(other)).toBe(true);
  });

  it('lets a check that already has a page open open another (the hold waits on it: it would never end)', async () => {
    const { hold, open, close } = setup();
    open('p1', 'a');
    const held = hold.hold('b');
    const second = await hold.beforeOpen('a');
    expect(await settled(held)).toBe(false);
    close('p1');
    expect(await settled(held)).toBe(false);
    second();
    expect(await settled(held)).toBe(true);
  });

  it("is reentrant for its owner and ends with the owner's last release; a second holder waits", async () => {
    const { hold } = setup();
    const first = await hold.hold('b');
    const second = await hold.hold('b');
    const other = hold.hold('c');
    first();
    first();
    expect(await settled(other)).toBe(false);
    second();
    expect(await settled(other)).toBe(true);
  });
});
