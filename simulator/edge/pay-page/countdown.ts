// Expiry countdown on the virtual clock. The server sends its now and expiresAt; the browser
// counts from the moment it received them, so a clock advanced by hours still shows right.

export interface ClockSync {
  /** Virtual now from the server (ms). */
  serverNowMs: number;
  /** The browser's Date.now() when that value arrived. */
  receivedAtMs: number;
}

export function remainingMs(expiresAtMs: number, sync: ClockSync, localNowMs: number): number {
  const virtualNow = sync.serverNowMs + (localNowMs - sync.receivedAtMs);
  return Math.max(0, expiresAtMs - virtualNow);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** "59:07", "1:02:03", "2 d 03:00:00"; "0:00" when time is up. */
export function formatRemaining(ms: number): string {
  const totalSeconds = Math.floor(ms / 1000);
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${days} d ${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${minutes}:${pad(seconds)}`;
}

/** Words for screen readers, which should not hear "59:07" read as a ratio. */
export function describeRemaining(ms: number): string {
  const totalMinutes = Math.ceil(ms / 60_000);
  if (totalMinutes <= 1) return ms === 0 ? 'expired' : 'less than a minute left';
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  const parts = [
    days ? `${days} day${days > 1 ? 's' : ''}` : '',
    hours ? `${hours} hour${hours > 1 ? 's' : ''}` : '',
    minutes ? `${minutes} minute${minutes > 1 ? 's' : ''}` : '',
  ];
  return `${parts.filter(Boolean).join(' ')} left`;
}
