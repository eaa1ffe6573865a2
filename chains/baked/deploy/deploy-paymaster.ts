// The gas paymaster (see contracts/StablecoinGasPaymaster.sol): CREATE2 so it has the same address on every chain,
// a price per token from fixtures/chains.json, and a large EntryPoint deposit to pay the native gas.
import { concat, encodeAbiParameters, encodeFunctionData, getContractAddress, keccak256, parseEther, type Address } from 'viem';
import { TOKENS } from '@stablepay/contract/chain-table';
import { tokenPerNative } from '../../clients/gas-price.ts';
import { loadOwnArtifact } from '../../contracts/load-artifact.ts';
import { ChainLayerError } from '../../errors.ts';
import { CREATE2_DEPLOYER, ENTRY_POINT_ADDRESS, PAYMASTER_ADDRESS, PAYMASTER_SALT, gasTreasury, operatorAccount } from '../../roles.ts';
import { sendTransaction } from '../../clients/send-transaction.ts';
import type { BakeContext } from './bake-context.ts';
import { deployWithCreate2 } from './deploy-account-abstraction.ts';

/** Gas the paymaster's postOp itself burns, charged on top of the actualGasCost the EntryPoint passes it. */
export const POST_OP_OVERHEAD_GAS = 35_000n;
/** Native tokens deposited in the EntryPoint for the paymaster. */
export const PAYMASTER_DEPOSIT = parseEther('1000000');

function paymasterInitCode() {
  const artifact = loadOwnArtifact('StablecoinGasPaymaster');
  return concat([
    artifact.bytecode,
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }],
      [ENTRY_POINT_ADDRESS, operatorAccount.address, gasTreasury, POST_OP_OVERHEAD_GAS],
    ),
  ]);
}

/** The paymaster's address (identical on every chain), computed from its init code; the simulator uses PAYMASTER_ADDRESS. */
export function paymasterAddress(): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: CREATE2_DEPLOYER,
    salt: PAYMASTER_SALT,
    bytecodeHash: keccak256(paymasterInitCode()),
  });
}

export async function deployPaymaster(ctx: BakeContext): Promise<Address> {
  const address = paymasterAddress();
  if (address !== PAYMASTER_ADDRESS) {
    throw new ChainLayerError(
      `The paymaster's init code now gives address ${address}, not PAYMASTER_ADDRESS ${PAYMASTER_ADDRESS}: set PAYMASTER_ADDRESS in chains/roles.ts to it and bake again.`,
    );
  }
  await deployWithCreate2(ctx, PAYMASTER_SALT, paymasterInitCode(), address, 'StablecoinGasPaymaster');
  const abi = loadOwnArtifact('StablecoinGasPaymaster').abi;
  for (const symbol of TOKENS) {
    const token = ctx.chain.tokens[symbol];
    if (!token) continue;
    await sendTransaction(ctx.publicClient, ctx.operator, {
      to: address,
      data: encodeFunctionData({
        abi,
        functionName: 'setTokenPrice',
        args: [token.address, tokenPerNative(ctx.chain.nativeUsdPrice, token.decimals)],
      }),
      purpose: `price ${symbol} for gas`,
    });
  }
  await sendTransaction(ctx.publicClient, ctx.operator, {
    to: address,
    data: encodeFunctionData({ abi, functionName: 'deposit' }),
    value: PAYMASTER_DEPOSIT,
    purpose: 'deposit for the paymaster',
  });
  return address;
}
