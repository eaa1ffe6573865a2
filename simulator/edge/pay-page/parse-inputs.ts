// Bodies of the page's own endpoints. Every invalid field gets one errors[] entry, as on /v1.
import { addressProblem, EMAIL_PROBLEM, normalEmail, objectBody, Problems, rejectUnknownFields } from '../../core/validation/index.ts';

const objectWith = (body: unknown, fields: string) => objectBody(body, `Request body must be a JSON object with ${fields}`);

export function parseSignIn(body: unknown): { email: string } {
  const problems = new Problems();
  const input = objectWith(body, 'email');
  rejectUnknownFields(input, ['email'], problems);
  const email = normalEmail(input.email);
  if (email === undefined) problems.add(['email'], EMAIL_PROBLEM);
  problems.throwIfAny();
  return { email: email as string };
}

export function parseConnect(body: unknown): { ownerAddress: `0x${string}` } {
  const problems = new Problems();
  const input = objectWith(body, 'ownerAddress');
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
