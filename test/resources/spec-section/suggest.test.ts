// "Did you mean": likely typos get a suggestion, unrelated words do not.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closestMatch, editDistance } from "../../../src/resources/spec-section/suggest.js";

describe("editDistance", () => {
  it("counts a swap of neighbours as one edit", () => {
    assert.equal(editDistance("corse", "cores"), 1);
    assert.equal(editDistance("cores", "cores"), 0);
    assert.equal(editDistance("memry", "memory"), 1);
    assert.equal(editDistance("abc", ""), 3);
  });
});

describe("closestMatch", () => {
  const keys = ["cores", "sockets", "cpu", "memory", "balloon", "sshKeys", "tokenSecretEnv"];
  it("suggests for typos, case and separator differences", () => {
    assert.equal(closestMatch("corse", keys), "cores");
    assert.equal(closestMatch("ballon", keys), "balloon");
    assert.equal(closestMatch("ssh_keys", keys), "sshKeys");
    assert.equal(closestMatch("token_secret_env", keys), "tokenSecretEnv");
  });
  it("stays quiet when nothing is close", () => {
    assert.equal(closestMatch("hostpci0", keys), undefined);
    assert.equal(closestMatch("cpux2", ["cores"]), undefined);
  });
});
