// PVE::Tools::validate_ssh_public_keys runs `ssh-keygen -l` on every non-empty line and refuses
// the lot with one message when any line fails. ssh-keygen accepts a line whose key blob is
// base64 that starts with the same key type as the line names (an options prefix is allowed).
import { PveApiError } from "../contract.js";

const KEY_TYPE = /^(ssh-(rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(-cert-v01@openssh\.com)?$/;

/**
 * The key type at the start of an OpenSSH key blob, when the blob is well formed: base64 of
 * length-prefixed fields that use it up exactly (so a cut-off key is refused, as ssh-keygen does).
 */
function blobType(base64: string): string | undefined {
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const blob = Buffer.from(base64, "base64");
  const fields: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(at);
    if (length > blob.length - at - 4) return undefined;
    fields.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields.length >= 2 ? fields[0]?.toString("latin1") : undefined;
}

function validLine(line: string): boolean {
  const words = line.trim().split(/\s+/);
  for (let i = 0; i + 1 < words.length; i++) {
    const type = words[i] as string;
    if (KEY_TYPE.test(type)) return blobType(words[i + 1] as string) === type;
  }
  return false;
}

export function validateSshPublicKeys(raw: string): void {
  for (const line of raw.split("\n")) {
    if (line.trim() === "") continue;
    if (!validLine(line)) throw new PveApiError(500, "SSH public key validation error");
  }
}
