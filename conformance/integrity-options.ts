// Options of a run's integrity and reproduction outputs: the signed manifest of the report files and the recorded
// traffic. Declared as data like every option (the CLI builds its flags from these declarations).
import type { OptionDeclaration } from './option-declaration.ts';

export interface IntegrityOptions {
  /** Sign the report files with a key generated for this run (its public half is printed and written). */
  sign?: boolean;
  /** Ed25519 private key (PEM, PKCS#8) that signs the report files; implies `sign`. */
  signKey?: string;
  /** Write every request and response of the run to this file as HAR 1.2 (credentials redacted). */
  record?: string;
}

export const INTEGRITY_OPTION_DECLARATIONS: OptionDeclaration<keyof IntegrityOptions>[] = [
  {
    name: 'sign',
    flags: '--sign',
    description:
      'sign the report files (manifest.jws) with a key generated for this run; its public key is printed and written to the report directory',
    parser: 'flag',
  },
  {
    name: 'signKey',
    flags: '--sign-key <pem>',
    description:
      'sign the report files with this Ed25519 private key (PEM); check with: stablepay verify-report <dir> --public-key <pub.pem>',
    parser: 'string',
  },
  {
    name: 'record',
    flags: '--record <file.har>',
    description: 'write every request and response of the run to this file as HAR 1.2 (credentials redacted)',
    parser: 'string',
  },
];
