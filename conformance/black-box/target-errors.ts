// Why a black-box target could not be used. Each is one sentence a person can act on; the CLI prints it and exits 2.
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}
