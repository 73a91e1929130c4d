// Keeps every credential the client knows (password, token secret, OTP, ticket, CSRF token)
// and removes them from any text before it reaches an error, a log line or the terminal.
const MASK = "***";

export class SecretScrubber {
  readonly #secrets = new Set<string>();

  add(secret: string | undefined): void {
    // Very short strings would mask ordinary words; credentials are never that short.
    if (!secret || secret.length < 4) return;
    // Also the encoded spellings: a ticket travels percent-encoded in the cookie.
    this.#secrets.add(secret);
    this.#secrets.add(encodeURIComponent(secret));
    this.#secrets.add(new URLSearchParams({ s: secret }).toString().slice(2));
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
    }
    return out;
  }
}
