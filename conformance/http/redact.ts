// Secrets never reach a report. Every secret the run learns (API keys it was given or created,
// webhook secrets) is registered here under a label; reports are written from scrubbed data, and
// curl reproductions refer to secrets as shell variables ($STABLEPAY_API_KEY) instead of values.

/** Patterns of secrets the implementation may hand out that the run did not register in time. */
const SECRET_PATTERNS: RegExp[] = [/whsec_[A-Za-z0-9]{8,}/g, /\bpk_[A-Za-z0-9]{16,}/g, /\bct_[A-Za-z0-9]{16,}/g];

export class SecretRegistry {
  private readonly secrets = new Map<string, string>();
  /** Deliberately invalid credentials the auth checks send; not secrets, shown as they are. */
  private readonly publicValues = new Set<string>();

  /** `label` becomes the shell variable name in reproductions, e.g. STABLEPAY_API_KEY. */
  add(value: string | null | undefined, label: string): void {
    if (!value || value.length < 6) return;
    if (!this.secrets.has(value)) this.secrets.set(value, label);
  }

  addPublic(value: string): void {
    this.publicValues.add(value);
  }

  isPublic(value: string): boolean {
    return this.publicValues.has(value);
  }

  labelOf(value: string): string | undefined {
    return this.secrets.get(value);
  }

  values(): string[] {
    return [...this.secrets.keys()];
  }

  /** Replaces every known secret, and anything shaped like one, with `[REDACTED:<label>]`. */
  scrub(text: string): string {
    let out = text;
    // Longest first so a secret that contains another is replaced whole.
    for (const [value, label] of [...this.secrets].sort((a, b) => b[0].length - a[0].length)) {
      if (out.includes(value)) out = out.split(value).join(`[REDACTED:${label}]`);
    }
    for (const pattern of SECRET_PATTERNS) {
      out = out.replace(pattern, (match) => (this.publicValues.has(match) ? match : '[REDACTED]'));
    }
    return out;
  }

  /** Replaces known secrets with `$LABEL` for shell commands; unknown secret shapes are redacted. */
  asShellVariables(text: string): string {
    let out = text;
    for (const [value, label] of [...this.secrets].sort((a, b) => b[0].length - a[0].length)) {
      if (out.includes(value)) out = out.split(value).join(`$${label}`);
    }
    return this.scrub(out);
  }

  /** Deep-scrubs any JSON-compatible value (strings anywhere inside objects and arrays). */
  scrubValue<T>(value: T): T {
    if (typeof value === 'string') return this.scrub(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.scrubValue(item)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = this.scrubValue(item);
      return out as T;
    }
    return value;
  }
}

/** Shell variable standing for the value of an extra request header (-H) in reproductions: STABLEPAY_HEADER_X_GATEWAY_TOKEN. */
export function headerVariable(name: string): string {
  return `STABLEPAY_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Header names whose values are credentials: always shown redacted in recordings. */
export const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-control-token']);

export function redactHeaders(headers: Record<string, string>, secrets: SecretRegistry): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      out[name] = secrets.scrub(value);
      continue;
    }
    const credential = value.replace(/^Bearer\s+/i, '');
    if (secrets.isPublic(value) || secrets.isPublic(credential)) out[name] = value;
    else {
      const label = secrets.labelOf(credential);
      out[name] = value.startsWith('Bearer ') ? `Bearer REDACTED${label ? `:${label}` : ''}` : 'REDACTED';
    }
  }
  return out;
}
