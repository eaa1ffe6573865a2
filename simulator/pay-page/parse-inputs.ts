// Bodies of the page's own endpoints. Every invalid field gets one errors[] entry, as on /v1.
import { isPlainObject, Problems, addressProblem, rejectUnknownFields } from '../validation/index.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL_LENGTH = 254;

function objectBody(body: unknown, problems: Problems, fields: string): Record<string, unknown> {
  if (!isPlainObject(body)) {
    problems.add([], `Request body must be a JSON object with ${fields}`);
    problems.throwIfAny();
  }
  return body as Record<string, unknown>;
}

export function parseSignIn(body: unknown): { email: string } {
  const problems = new Problems();
  const input = objectBody(body, problems, 'email');
  rejectUnknownFields(input, ['email'], problems);
  const email = typeof input.email === 'string' ? input.email.trim() : '';
  if (!EMAIL.test(email) || email.length > MAX_EMAIL_LENGTH) problems.add(['email'], 'email must be an e-mail address such as ann@example.com');
  problems.throwIfAny();
  return { email };
}

export function parseConnect(body: unknown): { ownerAddress: `0x${string}` } {
  const problems = new Problems();
  const input = objectBody(body, problems, 'ownerAddress');
  rejectUnknownFields(input, ['ownerAddress'], problems);
  const problem = addressProblem(input.ownerAddress);
  if (problem) problems.add(['ownerAddress'], `ownerAddress: ${problem}`);
  problems.throwIfAny();
  return { ownerAddress: input.ownerAddress as `0x${string}` };
}

/** The checkout token from `Authorization: Bearer ct_...`, or undefined. */
export function bearerCheckoutToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(ct_\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
