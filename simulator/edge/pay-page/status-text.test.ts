import { describe, expect, it } from 'vitest';
import { isFinal, isPayable, payHint, statusText } from './status-text.ts';

describe('status words', () => {
  it('says what happened, with the failure reason and code', () => {
    expect(
      statusText({
        status: 'FAILED',
        chainName: 'Base',
        token: 'USDC',
        error: { code: 'TRANSACTION_REVERTED', message: 'The transaction reverted on-chain' },
      }),
    ).toEqual({
      tone: 'error',
      headline: 'Payment failed',
      detail: 'The transaction reverted on-chain (TRANSACTION_REVERTED)',
    });
    expect(statusText({ status: 'PROCESSING', chainName: 'Polygon', token: 'USDT', error: null }).detail).toBe(
      'Waiting for confirmation on Polygon…',
    );
    expect(statusText({ status: 'EXPIRED', chainName: null, token: null, error: null }).tone).toBe('closed');
  });

  it('only ACTIVE is payable; only the four terminal statuses are final', () => {
    expect(['ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'].filter((s) => isPayable(s as never))).toEqual([
      'ACTIVE',
    ]);
    expect(['ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'].filter((s) => isFinal(s as never))).toEqual([
      'SUCCESSFUL',
      'FAILED',
      'EXPIRED',
      'CANCELLED',
    ]);
  });

  it('the pay hint names the missing step, or why nothing is left to do', () => {
    const base = { status: 'ACTIVE' as const, paying: false, signedIn: false, picked: false };
    expect(payHint(base)).toBe('Sign in first (step 1).');
    expect(payHint({ ...base, signedIn: true })).toBe('Choose a network and token (step 2).');
    expect(payHint({ ...base, signedIn: true, picked: true })).toMatch(/^You sign one transaction/);
    expect(payHint({ ...base, paying: true })).toBe('Payment in progress…');
    expect(payHint({ ...base, status: 'CANCELLED', signedIn: true, picked: true })).toBe('This payment can no longer be paid.');
    expect(payHint({ ...base, status: 'SUCCESSFUL' })).toBe('This payment is complete.');
  });
});
