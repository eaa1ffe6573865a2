// Who can reach the control API, decided before the server listens. On a loopback address only
// this machine can; on any other address a token is required, unless the operator says in so many
// words (--control-insecure) that anyone who can reach the port may drive the simulator.

export type ControlExposure = { kind: 'disabled' } | { kind: 'token' } | { kind: 'loopback' } | { kind: 'insecure'; host: string };

export interface ControlExposureInput {
  host: string;
  control: boolean;
  token: string | undefined;
  insecure: boolean;
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare) || /^::ffff:127(?:\.\d{1,3}){3}$/.test(bare);
}

/** Throws (RangeError) when a non-loopback bind would expose the control API without a token. */
export function controlExposure({ host, control, token, insecure }: ControlExposureInput): ControlExposure {
  if (!control) return { kind: 'disabled' };
  if (token !== undefined) return { kind: 'token' };
  if (isLoopbackHost(host)) return { kind: 'loopback' };
  if (insecure) return { kind: 'insecure', host };
  throw new RangeError(
    `refusing to serve the control API on ${host} without a token: pass --control-token <token>, --no-control, or --control-insecure to expose it anyway`,
  );
}

export function describeControlExposure(exposure: ControlExposure): string {
  switch (exposure.kind) {
    case 'disabled':
      return '(disabled)';
    case 'token':
      return 'token required (X-Control-Token header)';
    case 'loopback':
      return 'no token: reachable from this machine only (loopback)';
    case 'insecure':
      return `NO TOKEN on ${exposure.host} (--control-insecure): anyone who reaches this port controls the simulator`;
  }
}
