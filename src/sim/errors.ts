// Errors for the person who starts the simulator (a bad --config, --state or --state-dir, a
// port in use): each says what to fix in `userMessage()`, and `pvectl sim` prints it as it is.
// The simulator stands on its own (it imports only pve/ and schema/), so this is its own base
// rather than pvectl's PvectlError. Its answers to API clients are PveApiError (contract.ts).
export abstract class SimUserError extends Error {
  abstract userMessage(): string;
}
