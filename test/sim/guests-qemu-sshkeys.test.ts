// qemu-server checks `sshkeys` on create and on update (API2/Qemu.pm: uri_unescape, then
// PVE::Tools::validate_ssh_public_keys: ssh-keygen on every non-empty line, one message for all).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

const GOOD = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 ops@example.com";
const CUT = "ssh-ed25519 AAAAC3Nza ops@laptop";

describe("qemu sshkeys", () => {
  it("refuses a create whose keys ssh-keygen would not read, and creates nothing", async () => {
    const h = new Harness();
    await rejects(h.createVm(100, { sshkeys: encodeURIComponent(`${GOOD}\n${CUT}\n`) }), 500, "SSH public key validation error");
    assert.equal(h.model.state.guests.length, 0);
  });

  it("refuses an update with a bad key, takes good keys with blank lines", async () => {
    const h = new Harness();
    await h.createVm(100, { sshkeys: encodeURIComponent(`${GOOD}\n\n`) });
    await rejects(
      h.call("PUT", "/nodes/pve1/qemu/100/config", { sshkeys: encodeURIComponent(CUT) }),
      500,
      "SSH public key validation error",
    );
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/config", { sshkeys: encodeURIComponent(`not a key\n${GOOD}`) }),
      500,
      "SSH public key validation error",
    );
    assert.equal(decodeURIComponent(String((await h.config(100)).sshkeys)), `${GOOD}\n\n`);
  });
});
