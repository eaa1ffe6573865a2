// Builds each chain's initial state once (contracts at their canonical addresses, roles and test accounts funded) and writes it to
// fixtures/chain-state/<chainId>.json for `anvil --load-state`, so a network starts in milliseconds instead of
// deploying ~20 contracts per chain. The bake is deterministic (fixed genesis time, 1 s block interval, fixed keys).
//   npx tsx chains/baked/bake-state.ts            bake all chains into fixtures/chain-state
//   npx tsx chains/baked/bake-state.ts --check    exit 1 when the committed states are stale
import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseEther } from 'viem';
import { createBakeContext } from './deploy/bake-context.ts';
import { deployAccountAbstraction } from './deploy/deploy-account-abstraction.ts';
import { deployPaymaster } from './deploy/deploy-paymaster.ts';
import { deployUsdc } from './deploy/deploy-usdc.ts';
import { deployUsdt } from './deploy/deploy-usdt.ts';
import { fundTestAccounts } from './deploy/fund-test-accounts.ts';
import { CHAIN_IDS, findChain } from '@stablepay/contract/chain-table';
import { tokenVariant } from '../contracts/token-variants.ts';
import { manifestPath, staleReason, statePath, type StateManifest } from './baked-states.ts';
import { dumpState, type AnvilStateDocument } from '../anvil/dump-state.ts';
import { UnknownChainError } from '../errors.ts';
import { chainStateDir } from '../paths.ts';
import { bundlerAccount, operatorAccount } from '../roles.ts';
import { anvilVersion, computeStateFingerprint } from './state-fingerprint.ts';
import { spawnAnvil } from '../anvil/spawn-anvil.ts';

/** 2025-01-01T00:00:00Z: genesis of every baked chain. Runtime blocks follow the (virtual) clock. */
export const BAKE_GENESIS_TIMESTAMP = 1_735_689_600;

/** Deploy everything on a fresh Anvil for `chainId` and return the state document. */
export async function bakeChainState(chainId: number): Promise<AnvilStateDocument> {
  const chain = findChain(chainId);
  if (!chain) throw new UnknownChainError(chainId, [...CHAIN_IDS]);
  const anvil = await spawnAnvil({ chainId, genesisTimestamp: BAKE_GENESIS_TIMESTAMP });
  try {
    const ctx = createBakeContext(chain, anvil.rpcUrl);
    await ctx.testClient.request({ method: 'anvil_setBlockTimestampInterval' as never, params: [1] as never });
    await ctx.testClient.setBalance({ address: operatorAccount.address, value: parseEther('1000000000') });
    await ctx.testClient.setBalance({ address: bundlerAccount.address, value: parseEther('1000000') });
    await deployAccountAbstraction(ctx);
    await deployPaymaster(ctx);
    const usdc = chain.tokens.USDC;
    const usdcVariant = tokenVariant(chainId, 'USDC');
    if (usdc && usdcVariant)
      await deployUsdc(ctx, { address: usdc.address, decimals: usdc.decimals, name: usdcVariant.name, symbol: usdcVariant.symbol });
    const usdt = chain.tokens.USDT;
    const usdtVariant = tokenVariant(chainId, 'USDT');
    if (usdt && usdtVariant) await deployUsdt(ctx, usdt.address, usdtVariant);
    await fundTestAccounts(ctx);
    await ctx.testClient.mine({ blocks: 1 });
    return trimState(await dumpState(ctx.testClient));
  } finally {
    await anvil.stop();
  }
}

/**
 * Keep what `--load-state` needs: every account, and the best block (Anvil refuses a state without it). The bake's
 * deployment blocks, receipts and historical states are dropped: they are 80 % of the file and nothing reads them.
 */
export function trimState(state: AnvilStateDocument): AnvilStateDocument {
  const best = Number(state.best_block_number);
  const blocks = (state.blocks ?? []).filter((b) => Number((b as { header: { number: string } }).header.number) === best);
  const trimmed: AnvilStateDocument = { ...state, blocks, transactions: [] };
  delete trimmed.historical_states;
  return trimmed;
}

/** EIP-2935 keeps recent block hashes in storage; they differ on every bake (random prevrandao). */
const BLOCK_HASH_HISTORY = '0x0000f90827f1c53a10cb7a02335b175320002935';

/** The part of a baked state that must be identical on every bake: accounts, code, storage, balances. */
export function comparableState(state: AnvilStateDocument): AnvilStateDocument['accounts'] {
  const accounts = { ...state.accounts };
  delete accounts[BLOCK_HASH_HISTORY];
  return accounts;
}

export const formatState = (state: AnvilStateDocument): string => `${JSON.stringify(state)}\n`;

/** Bake `chainIds` into `dir` (two at a time: the machine may have only two cores). */
export async function bakeStates(chainIds: readonly number[] = CHAIN_IDS, dir = chainStateDir): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const queue = [...chainIds];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift())
      writeFileSync(statePath(id, dir), formatState(await bakeChainState(id)));
  };
  await Promise.all([worker(), worker()]);
  const manifest: StateManifest = { fingerprint: computeStateFingerprint(), anvil: anvilVersion(), chains: [...chainIds] };
  writeFileSync(manifestPath(dir), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const reason = staleReason(CHAIN_IDS);
    if (reason) {
      console.error(`Baked chain state is stale: ${reason}. Run: npx tsx chains/baked/bake-state.ts`);
      process.exit(1);
    }
    console.log('Baked chain state is up to date.');
    return;
  }
  const started = performance.now();
  await bakeStates();
  console.log(`Baked ${CHAIN_IDS.join(', ')} into fixtures/chain-state in ${Math.round(performance.now() - started)} ms.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
