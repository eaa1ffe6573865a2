// Well-known simulator keys and addresses. They are public on purpose: the chains are local, the state is baked
// with them, and anyone running the simulator may inspect or reuse them. Never use them on a real network.
import { keccak256, stringToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const keyFor = (role: string): Hex => keccak256(stringToHex(`stablepay/simulator/${role}`));

/** Deploys everything, owns the USDT replicas and the paymaster, and is USDC's master minter and minter. */
export const OPERATOR_KEY = keyFor('operator');
/** Sends `handleOps` and collects the EntryPoint's gas compensation. */
export const BUNDLER_KEY = keyFor('bundler');
/** Admin of the FiatTokenProxy (a proxy admin cannot call the token itself, so it is a separate account). */
export const USDC_PROXY_ADMIN_KEY = keyFor('usdc-proxy-admin');
const FEE_COLLECTOR_KEY = keyFor('fee-collector');
const GAS_TREASURY_KEY = keyFor('gas-treasury');

export const operatorAccount = privateKeyToAccount(OPERATOR_KEY);
export const bundlerAccount = privateKeyToAccount(BUNDLER_KEY);
export const usdcProxyAdmin: Address = privateKeyToAccount(USDC_PROXY_ADMIN_KEY).address;
/** Receives the service fee (0.5 %) of every payment. */
export const feeCollector: Address = privateKeyToAccount(FEE_COLLECTOR_KEY).address;
/** Receives the gas the customers pay in tokens (the paymaster's treasury). */
export const gasTreasury: Address = privateKeyToAccount(GAS_TREASURY_KEY).address;

/** ERC-4337 v0.7 canonical addresses (deployed through the deterministic CREATE2 deployer, as on mainnet). */
export const ENTRY_POINT_ADDRESS: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032';
export const SIMPLE_ACCOUNT_FACTORY_ADDRESS: Address = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985';
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
export const ENTRY_POINT_SALT: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3';
export const PAYMASTER_SALT: Hex = keccak256(stringToHex('stablepay/simulator/paymaster'));
