// Well-known simulator keys and addresses. They are public on purpose: the chains are local, the state is baked
// with them, and anyone running the simulator may inspect or reuse them. Never use them on a real network.
import { keccak256, stringToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount, toAccount, type LocalAccount, type PrivateKeyAccount } from 'viem/accounts';

const keyFor = (role: string): Hex => keccak256(stringToHex(`stablepay/simulator/${role}`));

/** Deploys everything, owns the USDT replicas and the paymaster, and is USDC's master minter and minter. */
export const OPERATOR_KEY = keyFor('operator');
/** Sends `handleOps` and collects the EntryPoint's gas compensation. */
export const BUNDLER_KEY = keyFor('bundler');
/** Admin of the FiatTokenProxy (a proxy admin cannot call the token itself, so it is a separate account). */
export const USDC_PROXY_ADMIN_KEY = keyFor('usdc-proxy-admin');
export const FEE_COLLECTOR_KEY = keyFor('fee-collector');
export const GAS_TREASURY_KEY = keyFor('gas-treasury');

/**
 * The account of `key`, whose address is given: the key pair is derived on the first signature. Deriving it at
 * import would build secp256k1's tables (about 20 ms) on every start, before anything is signed. roles.test.ts
 * checks each address against its key.
 */
function accountOf(key: Hex, address: Address): LocalAccount {
  let account: PrivateKeyAccount | undefined;
  const signer = (): PrivateKeyAccount => (account ??= privateKeyToAccount(key));
  return toAccount({
    address,
    sign: (parameters) => signer().sign(parameters),
    signAuthorization: (parameters) => signer().signAuthorization(parameters),
    signMessage: (parameters) => signer().signMessage(parameters),
    signTransaction: (transaction, options) => signer().signTransaction(transaction, options),
    signTypedData: (typedData) => signer().signTypedData(typedData),
  });
}

export const operatorAccount = accountOf(OPERATOR_KEY, '0x1c51b6E732F91b7660eEca98109d081E9c982AB1');
export const bundlerAccount = accountOf(BUNDLER_KEY, '0xC0023Fb10565bae44C71388dAeA3e716a3819bdE');
export const usdcProxyAdmin: Address = '0x0EDA678B45C33FdE848616Ce71A895888a3A84Df';
/** Receives the service fee (0.5 %) of every payment. */
export const feeCollector: Address = '0x00304B971Ab7268D934eF6Cd681245db86070205';
/** Receives the gas the customers pay in tokens (the paymaster's treasury). */
export const gasTreasury: Address = '0xb10156dddfFc31c97f6A5C37858ED082F13061d3';

/** ERC-4337 v0.7 canonical addresses (deployed through the deterministic CREATE2 deployer, as on mainnet). */
export const ENTRY_POINT_ADDRESS: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032';
export const SIMPLE_ACCOUNT_FACTORY_ADDRESS: Address = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985';
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
export const ENTRY_POINT_SALT: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3';
export const PAYMASTER_SALT: Hex = keccak256(stringToHex('stablepay/simulator/paymaster'));
/**
 * The gas paymaster's CREATE2 address, the same on every chain. Given rather than computed at start: computing it
 * hashes the paymaster's whole init code (about 10 KB of keccak, tens of ms of CPU before the JIT warms up) on every
 * start. The bake refuses to deploy when this differs from the address the current init code gives, and
 * roles.test.ts checks the two agree.
 */
export const PAYMASTER_ADDRESS: Address = '0xE95435188BebAFe58Cf47BA42759e8f23b1dB071';
