// The checkout service of the hosted page and the rules that tie a user operation to its payment.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUserOperation } from '@stablepay/chains/parse-user-operation';
import { getTokenBalance, smartAccountOf, startChainNetwork, userOperationHash, type ChainNetwork } from '@stablepay/chains';
import { DomainRefusal, Invalid, InvalidState } from '../refusals/refusals.ts';
import { refusalStatus } from '../../edge/http/refusal-response.ts';
import { createChainHarness, signUserOpHash, type ChainHarness } from '../../test-support/chain-harness.ts';
import { TEST_API_KEY } from '../../test-support/harness.ts';

let network: ChainNetwork;
let h: ChainHarness;
beforeAll(async () => {
  network = await startChainNetwork();
  h = createChainHarness(network);
});
afterAll(async () => {
  await h?.sim.close();
  await network?.stop();
});

// The service refuses in domain terms; the status is what the one HTTP mapper makes of the refusal.
const statusOf = async (promise: Promise<unknown>): Promise<number | string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainRefusal ? refusalStatus(error.kind) : String(error)),
  );
const create = async (body: Record<string, unknown> = {}) =>
  (await h.createPayment({ amount: '25', currency: 'USD', ...body })).body.id as string;

describe('pairs', () => {
  it('lists allowed pairs that exist in the chain table, at the current rate; [] once not payable; 404 unknown', async () => {
    await h.request('PUT', '/control/v1/exchange-rates', { body: { rates: { BRL: '0.180000' } } });
    const id = (await h.createPayment({ amount: '100', currency: 'BRL', acceptedChains: [8453, 56, 1], acceptedTokens: ['USDT'] })).body
      .id as string;
    const pairs = await h.checkout.pairs(id);
    expect(pairs.map((p) => [p.chainId, p.chainName, p.token, p.decimals, p.amountToken])).toEqual([
      [56, 'BNB Smart Chain', 'USDT', 18, '18.000000'],
      [1, 'Ethereum', 'USDT', 6, '18.000000'],
    ]);
    for (const p of pairs) expect(p.gasEstimateToken).toMatch(/^\d+\.\d{6}$/);
    // Ethereum gas (2 gwei at 3000 USD) costs more than BSC gas (0.1 gwei at 600 USD).
    expect(Number(pairs[1]!.gasEstimateToken)).toBeGreaterThan(Number(pairs[0]!.gasEstimateToken));
    await h.request('PUT', '/control/v1/exchange-rates', { body: { rates: { BRL: '0.200000' } } });
    expect((await h.checkout.pairs(id)).map((p) => p.amountToken)).toEqual(['20.000000', '20.000000']);
    await h.request('DELETE', `/v1/payments/${id}`);
    expect(await h.checkout.pairs(id)).toEqual([]);
    expect(await statusOf(h.checkout.pairs('00000000-0000-4000-8000-000000000000'))).toBe(404);
  });
});

describe('sign-in and wallet connect', () => {
  it('derives the same embedded wallet for the same e-mail (any payment), another for another e-mail', async () => {
    const a = await h.checkout.signIn(await create(), { email: 'Ann@Example.com' });
    const b = await h.checkout.signIn(await create(), { email: ' ann@example.com ' });
    const c = await h.checkout.signIn(await create(), { email: 'bob@example.com' });
    expect(privateKeyToAccount(a.ownerPrivateKey).address).toBe(a.ownerAddress);
    expect(b.ownerPrivateKey).toBe(a.ownerPrivateKey);
    expect(c.ownerAddress).not.toBe(a.ownerAddress);
    expect(a.checkoutToken).toMatch(/^ct_[0-9a-f]{48}$/);
    expect(b.checkoutToken).not.toBe(a.checkoutToken);
  });

  it('refuses bad input with 400, unknown payments with 404, payments that cannot be paid with 409', async () => {
    const id = await create();
    for (const email of ['', 'no-at-sign', 'a b@c.d', 5, `${'x'.repeat(250)}@e.com`]) {
      expect(await statusOf(h.checkout.signIn(id, { email } as { email: string }))).toBe(400);
    }
    for (const ownerAddress of ['0x1234', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', null]) {
      expect(await statusOf(h.checkout.connectWallet(id, { ownerAddress } as { ownerAddress: `0x${string}` }))).toBe(400);
    }
    expect(await statusOf(h.checkout.signIn('00000000-0000-4000-8000-000000000000', { email: 'a@b.c' }))).toBe(404);
    await h.request('DELETE', `/v1/payments/${id}`);
    expect(await statusOf(h.checkout.signIn(id, { email: 'a@b.c' }))).toBe(409);
    expect(await statusOf(h.checkout.connectWallet(id, { ownerAddress: privateKeyToAccount(generatePrivateKey()).address }))).toBe(409);
  });

  it('an injected wallet owns the smart account and signs the operation itself', async () => {
    const key = generatePrivateKey();
    const owner = privateKeyToAccount(key);
    const id = await create();
    const { checkoutToken } = await h.checkout.connectWallet(id, { ownerAddress: owner.address });
    const prepared = await h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' });
    expect(prepared.sender).toBe((await smartAccountOf(network, { chainId: 8453, ownerAddress: owner.address })).address);
    expect(prepared.userOperation.signature).toBe('0x');
    expect(prepared).toMatchObject({ entryPoint: network.entryPoint, amountToken: '25.000000' });
    const reply = await h.rpc(
      8453,
      'eth_sendUserOperation',
      [{ ...prepared.userOperation, signature: await owner.signMessage({ message: { raw: prepared.userOpHash } }) }, prepared.entryPoint],
      checkoutToken,
    );
    expect(reply.body.result).toBe(prepared.userOpHash);
    expect((await h.settled(id)).body.status).toBe('SUCCESSFUL');
  });
});

describe('prepare', () => {
  it('funds the smart account from the faucet and reports the gas it may cost', async () => {
    const id = await create({ amount: '40' });
    const { checkoutToken } = await h.checkout.signIn(id, { email: 'funded@example.com' });
    const prepared = await h.checkout.prepare(checkoutToken, { chainId: 56, token: 'USDT' });
    const balance = await getTokenBalance(network, 56, 'USDT', prepared.sender);
    const gasUnits = BigInt(prepared.gasEstimateToken.replace('.', '')) * 10n ** 12n;
    expect(balance).toBeGreaterThanOrEqual(40n * 10n ** 18n + gasUnits - 10n ** 12n);
    expect(prepared.gasEstimateToken).toMatch(/^0\.\d{6}$/);
    expect(BigInt(prepared.userOperation.nonce as string)).toBe(0n);
  });

  it('refuses: 401 unknown token, 400 pair not allowed or not in the table, 409 not payable', async () => {
    const id = await create({ acceptedChains: [8453, 137], acceptedTokens: ['USDC'] });
    const { checkoutToken } = await h.checkout.signIn(id, { email: 'picky@example.com' });
    expect(await statusOf(h.checkout.prepare('ct_nope', { chainId: 8453, token: 'USDC' }))).toBe(401);
    expect(await statusOf(h.checkout.prepare(checkoutToken, { chainId: 1, token: 'USDC' }))).toBe(400); // chain not accepted
    expect(await statusOf(h.checkout.prepare(checkoutToken, { chainId: 137, token: 'USDT' }))).toBe(400); // token not accepted
    expect(await statusOf(h.checkout.prepare(checkoutToken, { chainId: 999, token: 'USDC' }))).toBe(400);
    expect(await statusOf(h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'DAI' }))).toBe(400);
    expect(
      await statusOf(
        h.checkout.prepare(checkoutToken, { chainId: '8453', token: 'USDC' } as unknown as { chainId: number; token: string }),
      ),
    ).toBe(400);
    const wide = await create({ acceptedChains: [8453], acceptedTokens: ['USDC', 'USDT'] });
    const wideToken = (await h.checkout.signIn(wide, { email: 'picky@example.com' })).checkoutToken;
    const refused = await h.checkout.prepare(wideToken, { chainId: 8453, token: 'USDT' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Invalid);
    expect(refused).toMatchObject({ message: 'USDT is not available on chain 8453' });
    expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe('ACTIVE');
    await h.request('DELETE', `/v1/payments/${id}`);
    const cancelled = await h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' }).catch((e: unknown) => e);
    expect(cancelled).toBeInstanceOf(InvalidState);
    expect(cancelled).toMatchObject({ message: 'Payment is not payable (status: CANCELLED)' });
  });
});

describe('a user operation is tied to its payment', () => {
  const send = (chainId: number, op: Record<string, unknown>, entryPoint: string, key: string | null) =>
    h.rpc(chainId, 'eth_sendUserOperation', [op, entryPoint], key);

  it('refuses a mismatching operation (even correctly signed) and a replay; the payment is untouched', async () => {
    const id = await create();
    const { checkoutToken, ownerPrivateKey } = await h.checkout.signIn(id, { email: 'tamper@example.com' });
    const prepared = await h.checkout.prepare(checkoutToken, { chainId: 137, token: 'USDC' });
    // The customer raises callGasLimit and signs that: a valid operation, but not the prepared one.
    const tampered = {
      ...prepared.userOperation,
      callGasLimit: `0x${(BigInt(prepared.userOperation.callGasLimit as string) + 1n).toString(16)}`,
    };
    const tamperedHash = userOperationHash(137, parseUserOperation(tampered));
    const mismatch = await send(
      137,
      { ...tampered, signature: await signUserOpHash(ownerPrivateKey, tamperedHash) },
      prepared.entryPoint,
      checkoutToken,
    );
    expect(mismatch.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('not the one prepared for payment') });
    // Sent to another chain than prepared.
    const otherChain = await send(
      1,
      { ...prepared.userOperation, signature: await signUserOpHash(ownerPrivateKey, prepared.userOpHash) },
      prepared.entryPoint,
      checkoutToken,
    );
    expect(otherChain.body.error.message).toContain('was prepared for chain 137, not chain 1');
    expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe('ACTIVE');
    expect(h.webhooks.emitted.filter((e) => e.paymentId === id)).toEqual([]);

    const signed = { ...prepared.userOperation, signature: await signUserOpHash(ownerPrivateKey, prepared.userOpHash) };
    expect((await send(137, signed, prepared.entryPoint, checkoutToken)).body.result).toBe(prepared.userOpHash);
    const done = (await h.settled(id)).body;
    expect(done.status).toBe('SUCCESSFUL');
    const replay = await send(137, signed, prepared.entryPoint, checkoutToken);
    expect(replay.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('already known') });
    expect((await h.request('GET', `/v1/payments/${id}`)).body).toEqual(done);
    expect(
      (await h.request('GET', '/v1/transactions?limit=100')).body.data.filter((t: { paymentId: string }) => t.paymentId === id),
    ).toHaveLength(1);
  });

  it("refuses another payment's operation, and operations without a checkout token", async () => {
    const a = await create();
    const b = await create();
    const ca = await h.checkout.signIn(a, { email: 'a@example.com' });
    const cb = await h.checkout.signIn(b, { email: 'b@example.com' });
    const preparedA = await h.checkout.prepare(ca.checkoutToken, { chainId: 42161, token: 'USDC' });
    const signedA = { ...preparedA.userOperation, signature: await signUserOpHash(ca.ownerPrivateKey, preparedA.userOpHash) };
    expect((await send(42161, signedA, preparedA.entryPoint, cb.checkoutToken)).body.error.message).toContain(
      `No user operation has been prepared for payment ${b}`,
    );
    const withKey = await send(42161, signedA, preparedA.entryPoint, TEST_API_KEY);
    expect(withKey.body.error.message).toContain('send it with the checkout token of that payment');
    expect((await h.rpc(42161, 'eth_chainId', [], TEST_API_KEY)).body.result).toBe('0xa4b1');
    expect((await h.rpc(42161, 'eth_chainId', [], ca.checkoutToken)).body.result).toBe('0xa4b1');
    expect((await h.rpc(42161, 'eth_chainId', [], 'ct_0123')).status).toBe(401);
    // A checkout token opens the web3 proxy only.
    expect((await h.request('GET', `/v1/payments/${a}`, { key: ca.checkoutToken })).status).toBe(401);
    expect((await h.request('GET', `/v1/payments/${a}`)).body.status).toBe('ACTIVE');
    expect((await h.request('GET', `/v1/payments/${b}`)).body.status).toBe('ACTIVE');
  });

  it('a wrongly signed operation is refused and the payment stays ACTIVE; the right signature then goes through', async () => {
    const id = await create();
    const { checkoutToken, ownerPrivateKey } = await h.checkout.signIn(id, { email: 'clumsy@example.com' });
    const prepared = await h.checkout.prepare(checkoutToken, { chainId: 1, token: 'USDT' });
    const wrong = await send(
      1,
      { ...prepared.userOperation, signature: await signUserOpHash(generatePrivateKey(), prepared.userOpHash) },
      prepared.entryPoint,
      checkoutToken,
    );
    expect(wrong.body.error).toMatchObject({ code: -32507, message: expect.stringContaining('AA24') });
    expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe('ACTIVE');
    const right = await send(
      1,
      { ...prepared.userOperation, signature: await signUserOpHash(ownerPrivateKey, prepared.userOpHash) },
      prepared.entryPoint,
      checkoutToken,
    );
    expect(right.body.result).toBe(prepared.userOpHash);
    expect((await h.settled(id)).body.status).toBe('SUCCESSFUL');
  });

  it('refuses operations for a cancelled or expired payment; nothing reaches the chain', async () => {
    for (const end of ['cancel', 'expire'] as const) {
      const id = await create({ expiresAt: new Date(h.sim.clock.now() + 20 * 60_000).toISOString() });
      const { checkoutToken, ownerPrivateKey } = await h.checkout.signIn(id, { email: `late-${end}@example.com` });
      const prepared = await h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' });
      const before = await getTokenBalance(network, 8453, 'USDC', prepared.sender);
      if (end === 'cancel') await h.request('DELETE', `/v1/payments/${id}`);
      else await h.sim.clock.advance(20 * 60_000);
      const status = end === 'cancel' ? 'CANCELLED' : 'EXPIRED';
      const reply = await send(
        8453,
        { ...prepared.userOperation, signature: await signUserOpHash(ownerPrivateKey, prepared.userOpHash) },
        prepared.entryPoint,
        checkoutToken,
      );
      expect(reply.body.error.message).toBe(`Payment ${id} is not payable (status: ${status})`);
      expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe(status);
      expect(await getTokenBalance(network, 8453, 'USDC', prepared.sender)).toBe(before);
      expect((await h.rpc(8453, 'eth_getUserOperationReceipt', [prepared.userOpHash], TEST_API_KEY)).body.result).toBeNull();
      expect(await statusOf(h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' }))).toBe(409);
    }
  });

  it('checkout tokens expire 24 h (virtual) after sign-in', async () => {
    const id = await create({ expiresAt: new Date(h.sim.clock.now() + 2 * 86_400_000).toISOString() });
    const { checkoutToken } = await h.checkout.signIn(id, { email: 'slow@example.com' });
    expect((await h.rpc(8453, 'eth_chainId', [], checkoutToken)).status).toBe(200);
    await h.sim.clock.advance(24 * 3_600_000);
    expect((await h.rpc(8453, 'eth_chainId', [], checkoutToken)).status).toBe(401);
    expect(await statusOf(h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' }))).toBe(401);
  });
});
