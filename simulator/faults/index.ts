export { FAULT_DEFINITIONS, FAULT_NAMES } from './catalogue.ts';
export type { FaultDefinition, FaultLevel, FaultName } from './catalogue.ts';
export { enabledFaults, NO_FAULTS, parseFaultList, resolveFaults, UnknownFaultError } from './active-faults.ts';
export type { ActiveFaults } from './active-faults.ts';
export { faultBanner } from './banner.ts';
export { webhookFaultSettings } from './webhook-settings.ts';
export type { WebhookFaultSettings } from './webhook-settings.ts';
