// `--fork` flags of `stablepay start` and `stablepay chains`, parsed before anything heavy loads.
/** `--fork 8453=https://...` (repeatable) into a chainId -> URL record; throws a one-sentence error on bad input. */
export function parseForks(values: readonly string[], supported: readonly number[]): Record<number, string> {
  const forks: Record<number, string> = {};
  for (const value of values) {
    const match = /^([0-9]+)=(.+)$/.exec(value);
    if (!match) throw new Error(`--fork takes <chainId>=<rpcUrl>, got "${value}"`);
    const chainId = Number(match[1]);
    if (!supported.includes(chainId)) throw new Error(`--fork names chain ${chainId}, which is not one of ${supported.join(', ')}`);
    try {
      const url = new URL(match[2]!);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      throw new Error(`--fork ${chainId}= needs an http(s) URL, got "${match[2]}"`);
    }
    forks[chainId] = match[2]!;
  }
  return forks;
}
