// A customer's ERC-4337 smart account (SimpleAccount v0.7 from the canonical factory). An e-mail address gives a
// deterministic owner key (keccak256 of the simulator seed and the normalised e-mail), so the same e-mail always
// signs in to the same account — and, since the factory has the same address everywhere, on every chain.
import { encodeFunctionData, keccak256, stringToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { entryPoint07Abi } from 'viem/account-abstraction';
import { ChainLayerError } from '../errors.ts';
import { loadAccountAbstractionArtifact } from '../contracts/load-artifact.ts';
import { ENTRY_POINT_ADDRESS, SIMPLE_ACCOUNT_FACTORY_ADDRESS } from '../roles.ts';
import type { ChainNetwork } from '../network/start-chain-network.ts';

export interface CreateCustomerAccountParameters {
  chainId: number;
  /** Use this owner key, or derive one from `email`. */
  ownerKey?: Hex;
  email?: string;
  /** Factory salt (default 0). */
  salt?: bigint;
}

/** A SimpleAccount as far as anyone can know it without its owner's key (e.g. one owned by an injected wallet). */
export interface SmartAccountReference {
  chainId: number;
  address: Address;
  ownerAddress: Address;
  salt: bigint;
  factory: Address;
  /** createAccount(owner, salt): the initCode data used while the account is not deployed. */
  factoryData: Hex;
  isDeployed(): Promise<boolean>;
  getNonce(): Promise<bigint>;
}

/** A smart account whose owner key the simulator holds (embedded wallet): it can sign. */
export interface CustomerAccount extends SmartAccountReference {
  owner: PrivateKeyAccount;
  ownerKey: Hex;
}

export function deriveOwnerKey(seed: string, email: string): Hex {
  const normalised = email.trim().toLowerCase();
  if (!normalised.includes('@')) throw new ChainLayerError(`"${email}" is not an e-mail address; pass an e-mail or an ownerKey.`);
  return keccak256(stringToHex(`stablepay/customer-owner\n${seed}\n${normalised}`));
}

export async function createCustomerAccount(network: ChainNetwork, params: CreateCustomerAccountParameters): Promise<CustomerAccount> {
  const ownerKey = params.ownerKey ?? (params.email !== undefined ? deriveOwnerKey(network.seed, params.email) : undefined);
  if (!ownerKey) throw new ChainLayerError('createCustomerAccount needs an ownerKey or an email.');
  const owner = privateKeyToAccount(ownerKey);
  const reference = await smartAccountOf(network, { chainId: params.chainId, ownerAddress: owner.address, salt: params.salt });
  return { ...reference, owner, ownerKey };
}

export interface SmartAccountOfParameters {
  chainId: number;
  ownerAddress: Address;
  /** Factory salt (default 0). */
  salt?: bigint;
}

/** The counterfactual SimpleAccount of `ownerAddress` (same address on every chain: the factory is canonical). */
export async function smartAccountOf(network: ChainNetwork, params: SmartAccountOfParameters): Promise<SmartAccountReference> {
  const handle = network.chain(params.chainId);
  const salt = params.salt ?? 0n;
  const factoryAbi = loadAccountAbstractionArtifact('SimpleAccountFactory').abi;
  const address = (await handle.publicClient.readContract({
    address: SIMPLE_ACCOUNT_FACTORY_ADDRESS,
    abi: factoryAbi,
    functionName: 'getAddress',
    args: [params.ownerAddress, salt],
  })) as Address;
  return {
    chainId: params.chainId,
    address,
    ownerAddress: params.ownerAddress,
    salt,
    factory: SIMPLE_ACCOUNT_FACTORY_ADDRESS,
    factoryData: encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [params.ownerAddress, salt] }),
    isDeployed: async () => {
      const code = await handle.publicClient.getCode({ address });
      return code !== undefined && code !== '0x';
    },
    getNonce: () =>
      handle.publicClient.readContract({
        address: ENTRY_POINT_ADDRESS,
        abi: entryPoint07Abi,
        functionName: 'getNonce',
        args: [address, 0n],
      }),
  };
}
