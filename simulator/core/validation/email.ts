// The one rule for a customer's e-mail at the hosted page's sign-in: the page's endpoint and the
// checkout service (which bench and tests call directly) must accept and refuse the same addresses.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_EMAIL_LENGTH = 254;

/** The e-mail as signed in with (trimmed), or undefined when `value` is not one. */
export function normalEmail(value: unknown): string | undefined {
  const email = typeof value === 'string' ? value.trim() : '';
  return EMAIL.test(email) && email.length <= MAX_EMAIL_LENGTH ? email : undefined;
}

export const EMAIL_PROBLEM = 'email must be an e-mail address such as ann@example.com';
