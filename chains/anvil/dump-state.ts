// anvil_dumpState returns gzip-compressed JSON as hex; this decodes it into the document `--load-state` reads.
import { gunzipSync } from 'node:zlib';
import type { Address, Hex } from 'viem';
import type { ChainTestClient } from '../clients/create-chain-clients.ts';

export interface AnvilAccountState {
  nonce: number;
  balance: Hex;
  code: Hex;
  storage: Record<Hex, Hex>;
}

export interface AnvilStateDocument {
  block?: unknown;
  accounts: Record<Address, AnvilAccountState>;
  best_block_number?: number | string;
  blocks?: unknown[];
  transactions?: unknown[];
  historical_states?: unknown;
  [key: string]: unknown;
}

export async function dumpState(testClient: ChainTestClient): Promise<AnvilStateDocument> {
  const hex = await testClient.dumpState();
  return JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8')) as AnvilStateDocument;
}

/** The account entry of `address` in a dump (dump keys are lowercase). */
export function accountIn(state: AnvilStateDocument, address: Address): AnvilAccountState | undefined {
  return state.accounts[address.toLowerCase() as Address];
}
