// Every premise the suite can find on its own, keyed by premise id. The others are confirmed by use: a check that
// sends the body or reads the field confirms or refutes it (context.ts confirmPremise / refutePremise).
import type { Discoverers } from '../book.ts';
import { API_KEY_DISCOVERERS } from './api-keys.ts';
import { discoverListItemKey } from './list-item-key.ts';
import { discoverMinimumAmounts } from './minimum-amounts.ts';

export const DISCOVERERS: Discoverers = {
  'list.item-key': discoverListItemKey,
  'payments.minimum-amounts': discoverMinimumAmounts,
  ...API_KEY_DISCOVERERS,
};
