import { privateKeyToAccount } from 'viem/accounts';
import { hashMessage, recoverAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { paymasterAddress } from './baked/deploy/deploy-paymaster.ts';
import {
  BUNDLER_KEY,
  FEE_COLLECTOR_KEY,
  GAS_TREASURY_KEY,
  OPERATOR_KEY,
  PAYMASTER_ADDRESS,
  USDC_PROXY_ADMIN_KEY,
  bundlerAccount,
  feeCollector,
  gasTreasury,
  operatorAccount,
  usdcProxyAdmin,
} from './roles.ts';

describe('well-known roles', () => {
  it('each given address is the one of its key', () => {
    expect(operatorAccount.address).toBe(privateKeyToAccount(OPERATOR_KEY).address);
    expect(bundlerAccount.address).toBe(privateKeyToAccount(BUNDLER_KEY).address);
    expect(usdcProxyAdmin).toBe(privateKeyToAccount(USDC_PROXY_ADMIN_KEY).address);
    expect(feeCollector).toBe(privateKeyToAccount(FEE_COLLECTOR_KEY).address);
    expect(gasTreasury).toBe(privateKeyToAccount(GAS_TREASURY_KEY).address);
  });

  it('the accounts sign with their key, as local accounts', async () => {
    expect(operatorAccount.type).toBe('local');
    const signature = await bundlerAccount.signMessage({ message: 'stablepay' });
    expect(signature).toBe(await privateKeyToAccount(BUNDLER_KEY).signMessage({ message: 'stablepay' }));
    expect(await recoverAddress({ hash: hashMessage('stablepay'), signature })).toBe(bundlerAccount.address);
  });

  it('the given paymaster address is the one its current init code deploys to', () => {
    expect(paymasterAddress()).toBe(PAYMASTER_ADDRESS);
  });
});
