// pvectl's one error base. Every error meant for a person derives from PvectlError: it says
// what failed and what to do next (`userMessage()`), names the `kind` programs branch on (the
// `kind` of `--json` error output) and the exit code the CLI ends with. Errors that are only a
// signal between two functions (a format check's verdict, a refused certificate the transport
// turns into a PveError) stay plain Errors: they become one of these before anyone sees them.

/** An error as `--json` prints it, and all that `JSON.stringify(err)` gives of a PvectlError. */
export interface PvectlErrorJson {
  kind: string;
  /** The first line of the text for a person. */
  message: string;
  /** The rest of it (what to do next), or null. */
  hint: string | null;
}

export abstract class PvectlError extends Error {
  /** What a program branches on: `usage`, `spec`, the PVE client's `auth`, `http` ... */
  abstract readonly kind: string;
  /** What to do next, for errors that keep it apart from the message. */
  declare readonly hint?: string;

  /** The CLI ends with this when the error stops a command. */
  get exitCode(): number {
    return 1;
  }

  /** The text for a person: the message, and the hint on an indented line below it. */
  userMessage(): string {
    return this.hint ? `${this.message}\n  ${this.hint}` : this.message;
  }

  /**
   * The kind and the words written for a person, never the error's fields: those may hold what
   * the secret scrubber never saw (a NetBox answer's body, a task's log, request details).
   */
  toJSON(): PvectlErrorJson {
    return { kind: this.kind, ...messageAndHint(this.userMessage()) };
  }
}

/** Splits a text for a person into its first line and the rest, each line of which loses its indent. */
export function messageAndHint(text: string): Omit<PvectlErrorJson, "kind"> {
  const trimmed = text.replace(/^error: /, "").trim();
  const cut = trimmed.indexOf("\n");
  const message = cut < 0 ? trimmed : trimmed.slice(0, cut);
  const hint = cut < 0 ? null : trimmed.slice(cut + 1).replace(/^\s+/gm, "").trim() || null;
  return { message, hint };
}

/** The words for a person about anything thrown: a PvectlError's userMessage(), another's message. */
export function userMessageOf(err: unknown): string {
  if (err instanceof PvectlError) return err.userMessage();
  return err instanceof Error ? err.message : String(err);
}

/**
 * Input a person gave cannot be used (a flag, a selection, an argument): what is wrong, and
 * the hint says what to give instead. Commands' own usage errors derive from it.
 */
export class UsageProblem extends PvectlError {
  readonly kind: string = "usage";

  constructor(
    message: string,
    override readonly hint: string,
  ) {
    super(message);
    this.name = "UsageProblem";
  }
}
