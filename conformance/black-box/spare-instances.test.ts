// How many target instances a black-box run starts: the default only when the suite picks the ports and runs checks
// side by side; a fixed port cannot be shared, so asking for more then is a usage error before anything starts.
import { describe, expect, it } from 'vitest';
import { TARGET_DEFAULTS } from '../black-box-options.ts';
import { UsageError } from '../options.ts';
import { instanceCount } from './spare-instances.ts';

describe('instanceCount', () => {
  it('starts spares by default only with free ports and more than one worker', () => {
    expect(instanceCount({}, 4)).toBe(TARGET_DEFAULTS.instances);
    expect(instanceCount({}, 1)).toBe(1);
    expect(instanceCount({ baseUrl: 'http://127.0.0.1:4555' }, 4)).toBe(1);
    expect(instanceCount({ targetPort: 4555 }, 4)).toBe(1);
    // An image's port is inside its container: each instance publishes it on a free host port.
    expect(instanceCount({ targetImage: 'stablepay:local', targetPort: 4000 }, 4)).toBe(TARGET_DEFAULTS.instances);
  });

  it('takes --instances as given, and refuses more than one on a fixed port', () => {
    expect(instanceCount({ instances: 2 }, 1)).toBe(2);
    expect(instanceCount({ instances: 1 }, 8)).toBe(1);
    expect(() => instanceCount({ instances: 2, targetPort: 4555 }, 4)).toThrow(UsageError);
    expect(() => instanceCount({ instances: 2, targetPort: 4555 }, 4)).toThrow(
      /^--instances 2: each instance listens on a port of its own/,
    );
  });
});
