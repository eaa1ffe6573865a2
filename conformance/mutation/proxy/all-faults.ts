// Every outside-in fault of the proxy, in the order the reports list them.
import { DELIVERY_FAULTS } from './delivery-faults.ts';
import { HISTORY_FAULTS } from './history-faults.ts';
import { ORACLE_FAULTS } from './oracle-faults.ts';
import { PAGE_FAULTS } from './page-faults.ts';
import { RESPONSE_FAULTS, type ProxyFault } from './response-faults.ts';
import { TIMING_FAULTS } from './timing-faults.ts';

/** The outside-in faults of the fault proxy (responses and deliveries of a correct simulator rewritten). */
export const PROXY_FAULTS: ProxyFault[] = [...RESPONSE_FAULTS, ...ORACLE_FAULTS, ...DELIVERY_FAULTS, ...HISTORY_FAULTS, ...TIMING_FAULTS];

/** Faults only a customer in a browser sees: the black-box runner runs them as well. */
export const BLACK_BOX_PROXY_FAULTS: ProxyFault[] = [...PROXY_FAULTS, ...PAGE_FAULTS];
