// PveError.classify(): what a failure means for a retry, read from PVE's status and its own
// words. Each answer below is PVE's wording as its sources write it (named per case), turned
// into an error by the client's own translation of a response.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lockHeldError, PveError } from "../../src/api/index.js";
import { type CallContext, httpError } from "../../src/api/messages.js";

const ctx: CallContext = {
  method: "PUT",
  path: "/nodes/pve/qemu/100/config",
  origin: "https://pve:8006",
  identity: "automation@pve!ci",
  authKind: "token",
  scrub: (text) => text,
};

/** The client's error for an HTTP answer with PVE's message in the body (a trailing newline, as PVE dies). */
function answer(status: number, message: string, errors?: Record<string, string>): PveError {
  return httpError({ status, statusText: "", envelope: { data: null, message: `${message}\n`, ...(errors ? { errors } : {}) } }, ctx);
}

/** A worker that ended with PVE's die message as its exit status. */
function taskFailed(exitstatus: string): PveError {
  return new PveError({ kind: "task", pveMessage: exitstatus, message: `task qmconfig 100 failed: ${exitstatus}` });
}

describe("PveError.classify: a lock held by another operation", () => {
  it("names the config lock of `VM is locked (...)` and `CT is locked (...)` (AbstractConfig.pm check_lock)", () => {
    for (const [err, lock] of [
      [answer(500, "VM is locked (backup)"), "backup"],
      [answer(500, "CT is locked (snapshot-delete)"), "snapshot-delete"],
      [taskFailed("VM is locked (migrate)"), "migrate"],
    ] as const) {
      const failure = err.classify();
      assert.equal(failure.lockHeld, true, err.message);
      assert.equal(failure.lock, lock, err.message);
      assert.equal(failure.digestMismatch, false);
    }
  });

  it("counts a config flock that stayed taken as a lock, without a lock name (Tools.pm lock_file_full)", () => {
    const failure = answer(500, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout").classify();
    assert.equal(failure.lockHeld, true);
    assert.equal(failure.lock, undefined);
  });

  it("sees the lock in the error a lock wait gives up with", () => {
    const failure = lockHeldError("backup", "VM is locked (backup); gave up after waiting 2 s (--lock-wait 2 s)").classify();
    assert.equal(failure.lockHeld, true);
    assert.equal(failure.lock, "backup");
  });
});

describe("PveError.classify: a digest PVE refused", () => {
  it("recognises qemu-server's wording in both of its spellings, and never counts it as a 500 worth repeating", () => {
    for (const message of ["checksum mismatch (file change by other user?)", "checksum missmatch (file change by other user?)"]) {
      const failure = answer(500, message).classify();
      assert.equal(failure.digestMismatch, true, message);
      assert.equal(failure.retryable500, false, message);
      assert.equal(failure.lockHeld, false, message);
    }
  });

  it("recognises pve-common's assert_if_modified, which containers and section configs answer", () => {
    const failure = answer(500, "detected modified configuration - file changed by other user? Try again.").classify();
    assert.equal(failure.digestMismatch, true);
    assert.equal(failure.retryable500, false);
  });
});

describe("PveError.classify: what would be created exists already", () => {
  it("recognises a vmid taken by a guest anywhere in the cluster (Cluster.pm check_vmid_unused), by a clone, or by nextid", () => {
    for (const err of [
      answer(500, "unable to create VM 100 - VM 100 already exists on node 'pve2'"),
      answer(500, "unable to create CT 100 - CT 100 already exists on node 'pve'"),
      answer(500, "unable to create VM 101: config file already exists"),
      answer(400, "Parameter verification failed.", { vmid: "VM 100 already exists" }),
    ]) {
      assert.equal(err.classify().alreadyExists, true, err.message);
      assert.equal(err.classify().retryable500, false, err.message);
    }
    assert.equal(answer(500, "VM 100 is running - destroy failed").classify().alreadyExists, false);
  });
});

describe("PveError.classify: refused by an ACL", () => {
  it("is a permission failure that did nothing and is not repeated", () => {
    const failure = answer(403, "Permission check failed (/vms/100, VM.Config.Memory)").classify();
    assert.equal(failure.permissionDenied, true);
    assert.equal(failure.mayHaveApplied, false);
    assert.equal(failure.transient, false);
    assert.equal(failure.retryable500, false);
    assert.equal(answer(500, "VM is locked (backup)").classify().permissionDenied, false);
  });
});

describe("PveError.classify: failures that may go away", () => {
  it("counts lost connections, timed-out exchanges and proxy answers as transient, and as maybe applied", () => {
    for (const err of [
      new PveError({ kind: "connection", code: "ECONNRESET", message: "the connection was reset by the server" }),
      new PveError({ kind: "timeout", message: "PUT /nodes/pve/qemu/100/config: no answer within 30 s" }),
      answer(595, "Connection refused"),
      answer(596, "Connection timed out"),
      answer(503, "Service Unavailable"),
    ]) {
      const failure = err.classify();
      assert.equal(failure.transient, true, err.message);
      assert.equal(failure.mayHaveApplied, true, err.message);
    }
  });

  it("does not count a task still running at the end of the wait as a failed exchange", () => {
    const failure = new PveError({ kind: "timeout", code: "TASK_TIMEOUT", message: "task still running" }).classify();
    assert.equal(failure.transient, false);
    assert.equal(failure.mayHaveApplied, true);
  });

  it("repeats a 500 only when it is not a handler's verdict", () => {
    assert.equal(answer(500, "cluster not ready - no quorum?").classify().retryable500, true);
    for (const verdict of [
      "Configuration file 'nodes/pve/qemu-server/999.conf' does not exist",
      "VM 100 is running - destroy failed",
      "can't remove VM 100 - protection mode enabled",
      "shrinking disks is not supported",
    ]) {
      assert.equal(answer(500, verdict).classify().retryable500, false, verdict);
    }
  });

  it("says a refusal before the handler ran cannot have applied", () => {
    assert.equal(
      answer(400, "Parameter verification failed.", { memory: "value must have a minimum value of 16" }).classify().mayHaveApplied,
      false,
    );
    assert.equal(answer(500, "VM is locked (backup)").classify().mayHaveApplied, true);
  });
});

describe("PveError.classify: pve-container's refusals", () => {
  it("are a handler's verdict, never a 500 worth repeating", () => {
    for (const message of [
      "SSH public key validation error",
      "unable to modify read-only option: 'unprivileged'",
      "unable to delete required option 'rootfs'",
      "cannot move volumes of a running container",
      "Cannot move in-use volume while the source CT is running - detach or shutdown first",
      "disk is already at specified size",
      "mount points configured, but 'rootfs' not set - aborting",
      "storage 'local' does not allow content type 'rootdir' (Container)",
      "storage 'zfs' is not available on node 'pve2'",
      "unable to use volume local:iso/x.iso - content type needs to be 'vztmpl'",
      "you can't convert a CT to template if the CT is running",
    ]) {
      assert.equal(answer(500, message).classify().retryable500, false, message);
    }
  });

  it("leaves a 500 that says nothing of the request's merit retryable", () => {
    assert.equal(answer(500, "Connection reset by peer").classify().retryable500, true);
  });
});
