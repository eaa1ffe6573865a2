import { describe, expect, it } from 'vitest';
import { checkFees, zeroDecimalViolations } from './fee-oracle.ts';
import type { CreateBody, Payment } from './payments.ts';

const SELLER = '0x00000000000000000000000000000000000000a1';
const payment = (fields: Partial<Payment>): Payment => ({ currency: 'USD', sellers: null, ...fields }) as Payment;
const properties = (request: CreateBody, p: Payment, minor: number) => checkFees(request, p, minor).map((v) => v.property);

describe('fee oracle', () => {
  const request: CreateBody = { amount: '100.00', currency: 'USD', sellers: [{ address: SELLER, amount: '50.00' }] };

  it('passes the exact split and fails one minor unit moved between recipients when every part is exact', () => {
    const exact = payment({ amount: '100.00', serviceFee: '0.50', merchantFee: '49.75', sellers: [{ address: SELLER, amount: '49.75' }] });
    expect(properties(request, exact, 2)).toEqual([]);
    const shifted = payment({
      amount: '100.00',
      serviceFee: '0.50',
      merchantFee: '49.74',
      sellers: [{ address: SELLER, amount: '49.76' }],
    });
    expect(new Set(properties(request, shifted, 2))).toEqual(new Set(['proportional']));
  });

  it('only warns (share-rounding) when a part must be rounded and a share is off its floor or ceiling', () => {
    const odd: CreateBody = { amount: '10.01', currency: 'USD', sellers: [{ address: SELLER, amount: '5.01' }] };
    // serviceFee 0.05; the seller's part 0.05 × 501/1001 ≈ 0.025: its fee may be 0.02 or 0.03, not 0.04.
    const floorOrCeil = payment({
      amount: '10.01',
      serviceFee: '0.05',
      merchantFee: '4.98',
      sellers: [{ address: SELLER, amount: '4.98' }],
    });
    expect(properties(odd, floorOrCeil, 2)).toEqual([]);
    const off = payment({ amount: '10.01', serviceFee: '0.05', merchantFee: '4.99', sellers: [{ address: SELLER, amount: '4.97' }] });
    expect(properties(odd, off, 2)).toContain('share-rounding');
    expect(properties(odd, off, 2)).not.toContain('proportional');
  });

  it('fails a zero-decimal currency written with decimals, but not an amount echoed as the merchant sent it', () => {
    const idr = payment({ amount: '16000', currency: 'IDR', serviceFee: '80.00', merchantFee: '15920' });
    expect(properties({ amount: '16000', currency: 'IDR' }, idr, 0)).toEqual(['zero-decimal']);
    const echoed = payment({ amount: '16000.00', currency: 'IDR', serviceFee: '80', merchantFee: '15920' });
    expect(zeroDecimalViolations({ amount: '16000.00', currency: 'IDR' }, echoed, 0)).toEqual([]);
    expect(zeroDecimalViolations(undefined, echoed, 0).map((v) => v.property)).toEqual(['zero-decimal']);
  });
});
