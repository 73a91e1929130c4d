// A reader that closes its end early (`pvectl inventory --list | head -c 10`) is not an error:
// the rest of the output has nobody to go to. Node reports it as an 'error' event on the stream
// which, unhandled, crashes with a stack trace. Handled once here for every command.

/**
 * After EPIPE on `stream`, further writes are dropped silently. The run itself goes on to its
 * end rather than exiting at once: an apply whose output is piped into `head` must not stop
 * between a create and what has to follow it.
 */
export function dropOutputWhenReaderCloses(stream: NodeJS.WriteStream): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    stream.write = (() => true) as typeof stream.write;
  });
}
