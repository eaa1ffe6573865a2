import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parseAbi, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainsEnvironment, chainsFile, type ChainsFile } from './chains-file.ts';
import { getTokenBalance } from '../network/fund-account.ts';
import { startChainNetwork, type ChainNetwork } from '../network/start-chain-network.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const schema = JSON.parse(readFileSync(join(import.meta.dirname, 'chains-file.schema.json'), 'utf8')) as object;

describe('the chains file', () => {
  let network: ChainNetwork;
  let file: ChainsFile;
  beforeAll(async () => {
    // No funding step: the test accounts are funded in the baked state the chains start from.
    network = await startChainNetwork({ chains: [8453, 56] });
    file = chainsFile(network);
  });
  afterAll(() => network?.stop());

  it('matches its JSON Schema', () => {
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: true })).compile(schema);
    expect(validate(JSON.parse(JSON.stringify(file))), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...file, chains: [] })).toBe(false);
  });

  it('names each chain with its RPC URL, tokens and decimals (BSC USDT has 18)', () => {
    expect(file.chains.map((c) => c.chainId)).toEqual([8453, 56]);
    expect(file.chains[1]).toMatchObject({
      chainId: 56,
      forkOf: null,
      tokens: { USDT: { address: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 } },
    });
    expect(file.chains[0]!.rpcUrl).toBe(network.chain(8453).rpcUrl);
    expect(chainsEnvironment(file, '/tmp/chains.json')).toEqual({
      STABLEPAY_CHAINS_FILE: '/tmp/chains.json',
      STABLEPAY_RPC_URL_8453: network.chain(8453).rpcUrl,
      STABLEPAY_RPC_URL_56: network.chain(56).rpcUrl,
    });
  });

  it('gives keys that really hold what the file says: funded test accounts and the USDC blacklister', async () => {
    for (const account of file.testAccounts) expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
    const units = BigInt(file.funding.tokens);
    expect(await getTokenBalance(network, 56, 'USDT', file.testAccounts[0]!.address)).toBe(units * 10n ** 18n);
    expect(await getTokenBalance(network, 8453, 'USDC', file.testAccounts[3]!.address)).toBe(units * 10n ** 6n);
    expect(await network.chain(56).publicClient.getBalance({ address: file.testAccounts[1]!.address })).toBe(
      parseEther(file.funding.native),
    );
    const usdc = network.chain(8453);
    const blacklister = await usdc.publicClient.readContract({
      address: network.tokenAddress(8453, 'USDC'),
      abi: parseAbi(['function blacklister() view returns (address)']),
      functionName: 'blacklister',
    });
    expect(blacklister).toBe(file.usdcRoles.blacklister.address);
    expect(privateKeyToAccount(file.usdcRoles.blacklister.privateKey).address).toBe(blacklister);
  });
});
