// Which retrieve-view fields must be set in which state (spec §2 "Present" column, §3 "Also").
import { AFTER_INITIATION_FIELDS, RETRIEVE_VIEW_FIELDS, type Payment, type PaymentStatus } from '../support/payments.ts';

export interface ViewViolation {
  requirement: string;
  message: string;
}

export const VIEW_REQUIREMENTS = [
  'PAY-GET-RESPONSE-200',
  'CHAIN-PAIRS-ONLY-FROM-TABLE',
  'PAY-STATE-ACTIVE-TO-PROCESSING',
  'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
  'PAY-FIELD-GAS-ACTUAL',
  'PAY-FIELD-PAID-AT',
  'PAY-FIELD-ERROR',
  'PAY-ERROR-OBJECT-SHAPE',
  'PAY-FIELD-UPDATED-AT',
  'PAY-VIEW-ALL-KEYS-PRESENT',
];

const set = (value: unknown) => value !== null && value !== undefined;

export function viewViolations(payment: Payment, expectedPair?: { chainId: number; token: string }): ViewViolation[] {
  const out: ViewViolation[] = [];
  const record = payment as unknown as Record<string, unknown>;
  const missingKeys = RETRIEVE_VIEW_FIELDS.filter((key) => !(key in record));
  if (missingKeys.length)
    out.push({ requirement: 'PAY-VIEW-ALL-KEYS-PRESENT', message: `retrieve view lacks keys ${missingKeys.join(', ')}` });
  if (!set(payment.updatedAt)) out.push({ requirement: 'PAY-FIELD-UPDATED-AT', message: 'updatedAt missing in the retrieve view' });
  const status: PaymentStatus = payment.status;
  const initiated = status === 'PROCESSING' || status === 'SUCCESSFUL' || status === 'FAILED';
  for (const field of AFTER_INITIATION_FIELDS) {
    if (initiated && !set(record[field]))
      out.push({ requirement: 'PAY-GET-RESPONSE-200', message: `${field} is not set on a ${status} payment` });
    if (status === 'ACTIVE' && set(record[field]))
      out.push({ requirement: 'PAY-GET-RESPONSE-200', message: `${field} is set (${JSON.stringify(record[field])}) before initiation` });
  }
  if (initiated && set(payment.chainId) && !payment.acceptedChains.includes(payment.chainId as NonNullable<Payment['chainId']>)) {
    out.push({
      requirement: 'CHAIN-PAIRS-ONLY-FROM-TABLE',
      message: `chainId ${payment.chainId} is not one of acceptedChains ${JSON.stringify(payment.acceptedChains)}`,
    });
  }
  if (initiated && expectedPair && (payment.chainId !== expectedPair.chainId || payment.token !== expectedPair.token)) {
    out.push({
      requirement: 'PAY-STATE-ACTIVE-TO-PROCESSING',
      message: `chain/token ${payment.chainId}/${payment.token}, customer chose ${expectedPair.chainId}/${expectedPair.token}`,
    });
  }
  const paid = status === 'SUCCESSFUL';
  for (const field of ['txHash', 'paidAt', 'gasActual'] as const) {
    if (paid && !set(record[field]))
      out.push({
        requirement: field === 'gasActual' ? 'PAY-FIELD-GAS-ACTUAL' : 'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
        message: `${field} is not set on a SUCCESSFUL payment`,
      });
  }
  if (!paid && set(payment.paidAt)) out.push({ requirement: 'PAY-FIELD-PAID-AT', message: `paidAt is set on a ${status} payment` });
  if (status === 'FAILED') {
    const error = payment.error as Record<string, unknown> | null;
    if (!error || typeof error.code !== 'string' || typeof error.source !== 'string' || typeof error.message !== 'string') {
      out.push({
        requirement: error ? 'PAY-ERROR-OBJECT-SHAPE' : 'PAY-FIELD-ERROR',
        message: `error on a FAILED payment is not {code, source, message}: ${JSON.stringify(payment.error)}`,
      });
    }
  } else if (set(payment.error)) {
    out.push({ requirement: 'PAY-FIELD-ERROR', message: `error is set on a ${status} payment: ${JSON.stringify(payment.error)}` });
  }
  return out;
}

/** The requirements viewViolations judges on a payment in this state (whether or not they held). */
export function viewJudged(payment: Payment, expectedPair?: { chainId: number; token: string }): string[] {
  const status = payment?.status;
  const initiated = status === 'PROCESSING' || status === 'SUCCESSFUL' || status === 'FAILED';
  return [
    'PAY-VIEW-ALL-KEYS-PRESENT',
    'PAY-FIELD-UPDATED-AT',
    'PAY-GET-RESPONSE-200',
    'PAY-FIELD-PAID-AT',
    'PAY-FIELD-ERROR',
    ...(initiated && payment.chainId !== null && payment.chainId !== undefined ? ['CHAIN-PAIRS-ONLY-FROM-TABLE'] : []),
    ...(initiated && expectedPair ? ['PAY-STATE-ACTIVE-TO-PROCESSING'] : []),
    ...(status === 'SUCCESSFUL' ? ['PAY-FIELD-GAS-ACTUAL', 'PAY-STATE-PROCESSING-TO-SUCCESSFUL'] : []),
    ...(status === 'FAILED' ? ['PAY-ERROR-OBJECT-SHAPE'] : []),
  ];
}
