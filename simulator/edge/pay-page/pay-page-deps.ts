// What the hosted page needs from the simulator, handed over by the one mount line in app.ts.
import type { MerchantTime } from '../../core/clock/virtual-clock.ts';
import type { MerchantStore } from '../../core/merchants/index.ts';
import type { PaymentService } from '../../core/payments/index.ts';
import type { CheckoutService } from '../../core/checkout/index.ts';

export interface PayPageDeps {
  payments: Pick<PaymentService, 'find'>;
  merchants: Pick<MerchantStore, 'get'>;
  /** The merchants' clocks: the page counts down on the payment's merchant's time. */
  clock: MerchantTime;
  /** The chain-backed checkout. Without it the page still shows the payment but cannot take one. */
  checkout?: CheckoutService | undefined;
  /**
   * The merchant's optional "redirect after payment" URL, a dashboard setting (control API
   * `PUT /merchant`). The default reads it from the merchant record.
   */
  redirectUrlOf?: (merchantId: string) => string | null | undefined;
}

/** Only absolute http(s) URLs are followed: a javascript: URL must never reach location.assign. */
export function safeRedirectUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function defaultRedirectUrlOf(merchants: PayPageDeps['merchants']): (merchantId: string) => string | null {
  return (merchantId) => safeRedirectUrl(merchants.get(merchantId)?.redirectUrl);
}
