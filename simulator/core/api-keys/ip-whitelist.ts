// IP whitelists: IPv4/IPv6 addresses and CIDR ranges, matched with node:net's BlockList.
import { BlockList, isIP } from 'node:net';

/** Why `entry` is not an address or CIDR range, or undefined when it is. */
export function whitelistEntryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string') return 'must be a string';
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return 'must be an IPv4 or IPv6 address or CIDR range';
  if (prefix !== undefined) {
    const max = family === 4 ? 32 : 128;
    if (!/^(0|[1-9][0-9]{0,2})$/.test(prefix) || Number(prefix) > max) return `CIDR prefix must be 0..${max}`;
  }
  return undefined;
}

/** Compile validated entries into a BlockList used as an allow list. */
export function compileWhitelist(entries: readonly string[]): BlockList {
  // BlockList matches IPv4 callers against IPv4-mapped IPv6 rules and vice versa by itself.
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

export function ipAllowed(list: BlockList | null, ip: string): boolean {
  if (list === null) return true;
  const address = normalizeIp(ip);
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** "::ffff:10.0.0.1" (IPv4-mapped, as dual-stack sockets report it) -> "10.0.0.1". */
export function normalizeIp(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? (mapped[1] as string) : address;
}
