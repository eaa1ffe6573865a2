// EVM address rules: 0x + 40 hex; a mixed-case address must carry a valid EIP-55 checksum.
import { checksumAddress } from 'viem';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Why `value` is not an acceptable address, or undefined when it is. */
export function addressProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'address must be a string';
  if (!ADDRESS.test(value)) return 'address must be 0x followed by 40 hex characters';
  const hex = value.slice(2);
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  if (mixedCase && checksumAddress(value as `0x${string}`) !== value) return 'address has an invalid EIP-55 checksum';
  return undefined;
}
