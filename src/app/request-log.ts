// `--verbose`: where each API exchange (method, path, status, time) is reported, credentials
// masked. Its own module so that only a run that asks for it loads the transport this early.
export { type RequestLogEntry, setRequestLog } from "../api/transport.js";
