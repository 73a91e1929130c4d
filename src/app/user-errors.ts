// The errors that carry their own message for a person, beyond pvectl's PvectlError: the
// simulator's (it stands on its own, with its own base class). Kept apart from sim-start.ts so
// that rendering an error does not load the simulator.
export { SimUserError } from "../sim/errors.js";
