import { encodeFunctionData, erc20Abi, getContractAddress, maxUint256, type Address, type Hex } from 'viem';
import { entryPoint07Abi } from 'viem/account-abstraction';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS, findChain, type TokenSymbol } from '@stablepay/contract/chain-table';
import { tokenVariant } from './token-variants.ts';
import { fundAccount, getTokenBalance } from '../network/fund-account.ts';
import { loadAccountAbstractionArtifact, loadCircleArtifact, loadOwnArtifact } from './load-artifact.ts';
import { ENTRY_POINT_ADDRESS, SIMPLE_ACCOUNT_FACTORY_ADDRESS, operatorAccount, usdcProxyAdmin } from '../roles.ts';
import { startChainNetwork, type ChainNetwork } from '../network/start-chain-network.ts';
import { tokenAbi } from './token-abi.ts';
import { waitForReceipt } from '../clients/send-transaction.ts';

// Facts of each token at its canonical address (mainnet), the table the replicas must reproduce.
const EXPECTED: { chainId: number; token: TokenSymbol; name: string; symbol: string; decimals: number }[] = [
  { chainId: 1, token: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  { chainId: 1, token: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 6 },
  { chainId: 42161, token: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  { chainId: 42161, token: 'USDT', name: 'USD₮0', symbol: 'USD₮0', decimals: 6 },
  { chainId: 8453, token: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  { chainId: 137, token: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  { chainId: 137, token: 'USDT', name: 'USDT0', symbol: 'USDT0', decimals: 6 },
  { chainId: 56, token: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 18 },
];

const holder: Address = '0x00000000000000000000000000000000000000c1';
const other: Address = '0x00000000000000000000000000000000000000c2';

describe('tokens and ERC-4337 contracts at their canonical addresses', () => {
  let network: ChainNetwork;
  beforeAll(async () => {
    network = await startChainNetwork();
  });
  afterAll(() => network?.stop());

  it('covers exactly the chain table', () => {
    const pairs = CHAINS.flatMap((c) => Object.keys(c.tokens).map((t) => `${c.chainId}:${t}`));
    expect(EXPECTED.map((e) => `${e.chainId}:${e.token}`).sort()).toEqual(pairs.sort());
  });

  for (const e of EXPECTED) {
    describe(`${e.token} on chain ${e.chainId}`, () => {
      it('has code at the canonical address and the mainnet name, symbol and decimals', async () => {
        const client = network.chain(e.chainId).publicClient;
        const address = network.tokenAddress(e.chainId, e.token);
        expect(address).toBe(findChain(e.chainId)!.tokens[e.token]!.address);
        expect((await client.getCode({ address }))?.length).toBeGreaterThan(1000);
        const [name, symbol, decimals] = await Promise.all(
          (['name', 'symbol', 'decimals'] as const).map((functionName) => client.readContract({ address, abi: erc20Abi, functionName })),
        );
        expect({ name, symbol, decimals }).toEqual({ name: e.name, symbol: e.symbol, decimals: e.decimals });
        expect(network.tokenDecimals(e.chainId, e.token)).toBe(e.decimals);
      });

      it('mints to an address (balance and total supply grow by the amount)', async () => {
        const client = network.chain(e.chainId).publicClient;
        const address = network.tokenAddress(e.chainId, e.token);
        const amount = 1234n * 10n ** BigInt(e.decimals) + 1n;
        const supplyBefore = await client.readContract({ address, abi: erc20Abi, functionName: 'totalSupply' });
        const before = await getTokenBalance(network, e.chainId, e.token, holder);
        await fundAccount(network, e.chainId, e.token, holder, amount);
        expect(await getTokenBalance(network, e.chainId, e.token, holder)).toBe(before + amount);
        expect(await client.readContract({ address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(supplyBefore + amount);
      });

      it(
        e.chainId === 1 && e.token === 'USDT' ? 'returns NO data from transfer, transferFrom and approve' : 'returns true from transfer',
        async () => {
          const handle = network.chain(e.chainId);
          const address = network.tokenAddress(e.chainId, e.token);
          await fundAccount(network, e.chainId, e.token, holder, 10n);
          const call = async (data: Hex): Promise<Hex | undefined> =>
            (await handle.publicClient.call({ account: holder, to: address, data })).data;
          const transfer = await call(encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [other, 1n] }));
          const approve = await call(encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [other, 1n] }));
          if (e.chainId === 1 && e.token === 'USDT') {
            expect(transfer ?? '0x').toBe('0x');
            expect(approve ?? '0x').toBe('0x');
          } else {
            expect(BigInt(transfer!)).toBe(1n);
            expect(BigInt(approve!)).toBe(1n);
          }
        },
      );
    });
  }

  it('Ethereum USDT: approve cannot move a non-zero allowance to another non-zero value, and transferFrom returns nothing', async () => {
    const handle = network.chain(1);
    const address = network.tokenAddress(1, 'USDT');
    const abi = tokenAbi('tether-token');
    const owner = '0x00000000000000000000000000000000000000c3';
    await handle.testClient.impersonateAccount({ address: owner });
    await handle.testClient.setBalance({ address: owner, value: 10n ** 18n });
    await fundAccount(network, 1, 'USDT', owner, 100n);
    const send = (data: Hex) =>
      handle.publicClient.request({
        method: 'eth_sendTransaction',
        params: [{ from: owner, to: address, data, gas: '0x30000', gasPrice: '0x3b9aca00' }],
      } as never) as Promise<Hex>;
    const status = async (hash: Hex) => (await waitForReceipt(handle.publicClient, hash)).status;
    expect(await status(await send(encodeFunctionData({ abi, functionName: 'approve', args: [other, 5n] })))).toBe('success');
    expect(await status(await send(encodeFunctionData({ abi, functionName: 'approve', args: [other, 6n] })))).toBe('reverted');
    expect(await status(await send(encodeFunctionData({ abi, functionName: 'approve', args: [other, 0n] })))).toBe('success');
    expect(await status(await send(encodeFunctionData({ abi, functionName: 'approve', args: [other, maxUint256] })))).toBe('success');
    const transferFrom = await handle.publicClient.call({
      account: other,
      to: address,
      data: encodeFunctionData({ abi, functionName: 'transferFrom', args: [owner, holder, 1n] }),
    });
    expect(transferFrom.data ?? '0x').toBe('0x');
    await handle.testClient.stopImpersonatingAccount({ address: owner });
  });

  it('USDC is Circle FiatTokenV2_2 behind FiatTokenProxy, with the simulator as master minter', async () => {
    for (const chainId of [1, 42161, 8453, 137]) {
      const client = network.chain(chainId).publicClient;
      const address = network.tokenAddress(chainId, 'USDC');
      const abi = loadCircleArtifact('FiatTokenV2_2').abi;
      expect(await client.readContract({ address, abi, functionName: 'version' })).toBe('2');
      expect(await client.readContract({ address, abi, functionName: 'currency' })).toBe('USD');
      expect(await client.readContract({ address, abi, functionName: 'masterMinter' })).toBe(operatorAccount.address);
      // Only the proxy admin may call the proxy's own functions (anyone else reaches the token).
      const proxyAbi = loadCircleArtifact('FiatTokenProxy').abi;
      expect(await client.readContract({ address, abi: proxyAbi, functionName: 'admin', account: usdcProxyAdmin })).toBe(usdcProxyAdmin);
      const implementation = (await client.readContract({
        address,
        abi: proxyAbi,
        functionName: 'implementation',
        account: usdcProxyAdmin,
      })) as Address;
      expect((await client.getCode({ address: implementation }))?.length).toBe(loadCircleArtifact('FiatTokenV2_2').deployedBytecode.length);
    }
    expect(tokenVariant(8453, 'USDT')).toBeUndefined();
  });

  it('every chain has EntryPoint v0.7, SimpleAccountFactory and the funded paymaster', async () => {
    for (const [chainId, handle] of network.chains) {
      const client = handle.publicClient;
      const entryPointCode = await client.getCode({ address: ENTRY_POINT_ADDRESS });
      expect(entryPointCode?.length, `EntryPoint on ${chainId}`).toBe(loadAccountAbstractionArtifact('EntryPoint').deployedBytecode.length);
      // Its constructor ran (deployed through CREATE2, not copied): the SenderCreator is its first CREATE.
      expect((await client.getCode({ address: getContractAddress({ from: ENTRY_POINT_ADDRESS, nonce: 1n }) }))?.length).toBeGreaterThan(
        100,
      );
      expect(
        await client.readContract({
          address: SIMPLE_ACCOUNT_FACTORY_ADDRESS,
          abi: loadAccountAbstractionArtifact('SimpleAccountFactory').abi,
          functionName: 'accountImplementation',
        }),
      ).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const deposit = await client.readContract({
        address: ENTRY_POINT_ADDRESS,
        abi: entryPoint07Abi,
        functionName: 'balanceOf',
        args: [network.paymaster],
      });
      expect(deposit).toBeGreaterThan(10n ** 21n);
      for (const token of ['USDC', 'USDT'] as const) {
        if (!handle.entry.tokens[token]) continue;
        const price = await client.readContract({
          address: network.paymaster,
          abi: loadOwnArtifact('StablecoinGasPaymaster').abi,
          functionName: 'tokenPerNative',
          args: [network.tokenAddress(chainId, token)],
        });
        expect(price, `${token} gas price on ${chainId}`).toBeGreaterThan(0n);
      }
    }
  });
});
