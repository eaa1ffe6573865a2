// The in-memory store behind the async interface keeps the same contract as the SQL store (runtime/sql-store/).
import { paymentRepositoryContract } from '../../test-support/payment-repository-contract.ts';
import { MemoryPaymentRepository } from './async-payment-repository.ts';

const repo = new MemoryPaymentRepository();
paymentRepositoryContract('in memory', () => repo);
