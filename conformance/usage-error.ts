// The one UsageError of the toolkit: a flag, option or file the command refuses before doing anything. Every
// command reports it in one line and exits 2 (cli/exit-codes.ts); the suite's option parsing throws it too.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
