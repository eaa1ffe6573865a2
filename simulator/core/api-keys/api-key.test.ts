import { describe, expect, it } from 'vitest';
import { displayedPrefix, generateApiKey, PREFIX_LENGTH } from './api-key.ts';

describe('displayedPrefix', () => {
  it('shows pk_ and 8 characters of a generated key', () => {
    const key = generateApiKey();
    expect(displayedPrefix(key)).toBe(key.slice(0, PREFIX_LENGTH));
  });

  it('never shows a short key whole: at most half of what follows pk_', () => {
    expect(displayedPrefix('pk_12345678')).toBe('pk_1234');
    expect(displayedPrefix('pk_123456789')).toBe('pk_1234');
    expect(displayedPrefix('pk_1234567890123456')).toBe('pk_12345678');
    for (let length = 8; length <= 20; length += 1) {
      const key = `pk_${'a'.repeat(length)}`;
      expect(displayedPrefix(key).length - 3).toBeLessThanOrEqual(length / 2);
    }
  });
});
