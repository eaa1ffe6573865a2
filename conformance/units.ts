// Durations and sizes as the suite prints them in sentences and reports (`15 s`, `1.5 s`, `8 MiB`).

export function formatSeconds(ms: number): string {
  return `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
}

export function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes >= mib) return `${bytes % mib === 0 ? bytes / mib : (bytes / mib).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${bytes % 1024 === 0 ? bytes / 1024 : (bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
