// Every byte under a directory as one string (latin1, so any byte sequence survives): what a test searches to show a
// secret was written to no file at all, the database's pages and its write-ahead log included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function everyByte(root: string): string {
  let text = '';
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    text += statSync(path).isDirectory() ? everyByte(path) : readFileSync(path).toString('latin1');
  }
  return text;
}
