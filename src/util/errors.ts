// pvectl's one error base. Every error meant for a person derives from PvectlError: it says
// what failed and what to do next (`userMessage()`), names the `kind` programs branch on (the
// `kind` of `--json` error output) and the exit code the CLI ends with. Errors that are only a
// signal between two functions (a format check's verdict, a refused certificate the transport
// turns into a PveError) stay plain Errors: they become one of these before anyone sees them.

/** An error as `--json` prints it, and all that `JSON.stringify(err)` gives of a PvectlError. */
export interface PvectlErrorJson {
  kind: string;
  /** What is wrong, without the advice. */
  message: string;
  /** What to do next; absent when the error gives no advice. */
  hint?: string;
  /** Each problem found, when there are several (an invalid spec or config). */
  problems?: string[];
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
   * The words for a person in parts: what is wrong, and the hint apart from it. An error with a
   * `hint` ends its text with it (however its userMessage() words the rest); one without has its
   * advice, if any, on the lines below the first.
   */
  parts(): Omit<PvectlErrorJson, "kind"> {
    const text = this.userMessage();
    if (!this.hint) return messageAndHint(text);
    const at = text.lastIndexOf(this.hint);
    const message =
      at >= 0 && at + this.hint.length === text.length
        ? text.slice(0, at).replace(/\s*(hint:)?[\s:;,]*$/, "")
        : messageAndHint(text).message;
    return { message: message.trim(), hint: this.hint };
  }

  /**
   * The kind and the words written for a person, never the error's fields: those may hold what
   * the secret scrubber never saw (a NetBox answer's body, a task's log, request details).
   */
  toJSON(): PvectlErrorJson {
    return { kind: this.kind, ...this.parts() };
  }
}

/** Splits a text for a person into its first line and the rest (the hint, each line unindented; absent when there is none). */
export function messageAndHint(text: string): Omit<PvectlErrorJson, "kind"> {
  const trimmed = text.replace(/^error: /, "").trim();
  const cut = trimmed.indexOf("\n");
  const message = cut < 0 ? trimmed : trimmed.slice(0, cut);
  const hint =
    cut < 0
      ? ""
      : trimmed
          .slice(cut + 1)
          .replace(/^\s+/gm, "")
          .trim();
  return hint ? { message, hint } : { message };
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
