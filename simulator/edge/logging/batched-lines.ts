// Log lines written within one turn of the event loop go out as one write: a line per request was a write
// system call per request (and a wake-up of whatever reads the pipe), about a tenth of a create's CPU under load.
// The order of the lines is kept; flush() writes what is pending at once (before another writer's line, at exit).

export interface BatchedLines {
  line(line: string): void;
  flush(): void;
}

export function batchedLines(write: (chunk: string) => void, schedule: (flush: () => void) => void = setImmediate): BatchedLines {
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    write(chunk);
  };
  return {
    line(line) {
      pending += `${line}\n`;
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
