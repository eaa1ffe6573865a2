// Exit codes shared by every subcommand, so scripts can tell "you called me wrong" from "it ran and failed".
/** Success (conformance: no failed check). */
export const EXIT_OK = 0;
/** The command ran and failed: conformance found failures; the simulator could not start or crashed. */
export const EXIT_FAILURE = 1;
/** Usage or configuration error: unknown flag, bad flag value, unreachable target, refused key. */
export const EXIT_USAGE = 2;

/** Printed under every usage error, in place of the whole help. */
export const USAGE_HINT = '(add --help for usage)';

/** A flag value the command refuses before doing anything; reported in one line and exit code 2. The suite's own. */
export { UsageError } from '@stablepay/conformance/usage-error';
