// Whether PVE would take a line of `ssh-public-keys` (a container's root keys): PVE runs
// `ssh-keygen -l` on every non-empty line, which reads a key type word followed by a base64
// blob of length-prefixed fields that starts with the same type (an options prefix may come
// first). Checked when a spec is loaded, so a pasted-wrong key fails with its position instead
// of failing the container's create.

const KEY_TYPE =
  /^(ssh-(rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(-cert-v01@openssh\.com)?$/;

/** The first field of a well-formed key blob (fields must use the blob up exactly). */
function leadingField(base64: string): string | undefined {
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const blob = Buffer.from(base64, "base64");
  const fields: string[] = [];
  for (let at = 0; at < blob.length; ) {
    if (at + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(at);
    if (length > blob.length - at - 4) return undefined;
    fields.push(blob.subarray(at + 4, at + 4 + length).toString("latin1"));
    at += 4 + length;
  }
  return fields.length >= 2 ? fields[0] : undefined;
}

/** Why ssh-keygen would refuse this public key line, or undefined when it would read it. */
export function sshPublicKeyProblem(line: string): string | undefined {
  const words = line.trim().split(/\s+/);
  const at = words.findIndex((word, i) => i + 1 < words.length && KEY_TYPE.test(word));
  if (at < 0)
    return "is not an OpenSSH public key: expected a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 ...) followed by the key";
  const type = words[at] as string;
  const found = leadingField(words[at + 1] as string);
  if (found === undefined)
    return `is not a complete ${type} key: its base64 part is cut off or damaged (copy the whole line of the .pub file)`;
  if (found !== type) return `says ${type} but holds a ${found} key`;
  return undefined;
}
