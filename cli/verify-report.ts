// `stablepay verify-report <dir>`: checks a signed report directory (written by `stablepay conformance --sign` or
// `--sign-key`): the manifest's Ed25519 signature, then every file's SHA-256. Exit codes: 0 untouched, 1 a file
// changed, is missing or is extra (each named) or the signature does not verify, 2 usage errors (no such directory,
// unreadable key file).
import { Option, type Command } from 'commander';
import { EXIT_FAILURE, EXIT_USAGE } from './exit-codes.ts';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay conformance --base-url http://127.0.0.1:4000 --report-dir reports --sign-key signing-key.pem',
  '  $ stablepay verify-report reports --public-key signing-key.pub.pem',
  '  $ stablepay verify-report reports            # with the key the directory carries: integrity only, not who signed',
].join('\n');

interface VerifyFlags {
  publicKey?: string;
  json?: boolean;
}

export function registerVerifyReportCommand(program: Command): Command {
  return program
    .command('verify-report')
    .description('Check that a signed conformance report directory is exactly as signed (manifest.jws): every byte of every file')
    .argument('<dir>', 'the report directory (holds manifest.jws)')
    .addOption(
      new Option(
        '--public-key <pem>',
        "Ed25519 public key (PEM) the report must be signed with; default: the directory's signing-key.pub.pem",
      ),
    )
    .addOption(new Option('--json', 'print the outcome as JSON'))
    .addHelpText(
      'after',
      `${EXAMPLES}\n\nExit codes: 0 untouched, 1 changed (a file altered, missing or extra, or a bad signature), 2 usage error.`,
    )
    .action(async (dir: string, flags: VerifyFlags) => {
      const [{ loadPublicKey, verifyReportDir }, { UsageError }] = await Promise.all([
        import('@stablepay/conformance/signing'),
        import('@stablepay/conformance/options'),
      ]);
      try {
        const key = flags.publicKey !== undefined ? loadPublicKey(flags.publicKey) : undefined;
        const outcome = await verifyReportDir(dir, key);
        if (flags.json) {
          const { manifest, ...rest } = outcome;
          process.stdout.write(
            `${JSON.stringify({ ...rest, run: manifest?.run ?? null, signedAt: manifest?.signedAt ?? null }, null, 2)}\n`,
          );
        } else if (outcome.ok) {
          process.stdout.write(`OK ${dir}: ${outcome.verified.length} files as signed (${outcome.verified.join(', ')})\n`);
          process.stdout.write(
            `   signed ${outcome.manifest?.signedAt ?? '?'} with Ed25519 key ${outcome.keyThumbprint}${outcome.keySource === 'report-dir' ? " — the directory's own key: this proves the files match its manifest, not who signed; pass --public-key to check the signer" : ''}\n`,
          );
        } else {
          process.stdout.write(`CHANGED ${dir}:\n${outcome.problems.map((p) => `  ${p}\n`).join('')}`);
        }
        process.exitCode = outcome.ok ? 0 : EXIT_FAILURE;
      } catch (error) {
        if (error instanceof UsageError) {
          process.stderr.write(`error: ${error.message}\n`);
          process.exitCode = EXIT_USAGE;
          return;
        }
        throw error;
      }
    });
}
