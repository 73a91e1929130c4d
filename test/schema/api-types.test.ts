// Compile-time checks of the generated API types: `npm run typecheck` fails when a
// wrong parameter type or a wrong path stops being rejected (unused @ts-expect-error),
// or when a correct call stops compiling. The runtime part proves the types cover
// exactly the endpoints of the runtime schema.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { type ApiMethod, type ApiParams, type ApiPath, type ApiReturns, type PathsWith, allEndpoints } from "../../src/schema/index.js";

/** A stand-in for the typed client: only its signature matters here. */
function get<P extends PathsWith<"GET">>(path: P, params: ApiParams<P, "GET">): ApiReturns<P, "GET"> {
  void path;
  void params;
  return undefined as unknown as ApiReturns<P, "GET">;
}
function put<P extends PathsWith<"PUT">>(path: P, params: ApiParams<P, "PUT">): ApiReturns<P, "PUT"> {
  void path;
  void params;
  return undefined as unknown as ApiReturns<P, "PUT">;
}

// Never called at runtime: the compiler checks the bodies.
function typedCalls(): void {
  const config = get("/nodes/{node}/qemu/{vmid}/config", { node: "pve1", vmid: 100 });
  const cores: number | undefined = config.cores;
  const net0: string | undefined = config.net0; // indexed key net[n]
  const bios: "seabios" | "ovmf" | undefined = config.bios;
  void [cores, net0, bios];

  // @ts-expect-error vmid is an integer, not a string
  get("/nodes/{node}/qemu/{vmid}/config", { node: "pve1", vmid: "100" });
  // @ts-expect-error node is required
  get("/nodes/{node}/qemu/{vmid}/config", { vmid: 100 });
  // @ts-expect-error no such path
  get("/nodes/{node}/qemu/{vmid}/konfig", { node: "pve1", vmid: 100 });
  // @ts-expect-error /version has no PUT
  put("/version", {});
  // @ts-expect-error bios is an enum
  put("/nodes/{node}/qemu/{vmid}/config", { node: "pve1", vmid: 100, bios: "uefi" });
  // @ts-expect-error the returned config has no such field
  void config.coresz;

  put("/nodes/{node}/qemu/{vmid}/config", {
    node: "pve1",
    vmid: 100,
    net1: "virtio,bridge=vmbr0",
    scsi0: "local-lvm:32",
    onboot: 1,
    protection: true,
    delete: "ide2",
  });

  const version = get("/version", {});
  const release: string = version.release;
  void release;
  const nodes = get("/nodes", {});
  const first: string | undefined = nodes[0]?.node;
  void first;
}
void typedCalls;

type Assert<T extends true> = T;
type IsEqual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Checks = [
  Assert<IsEqual<ApiReturns<"/nodes/{node}/qemu/{vmid}/config", "PUT">, null>>,
  Assert<IsEqual<ApiParams<"/version", "GET">, Record<string, never>>>,
  Assert<"/nodes/{node}/qemu/{vmid}/config" extends PathsWith<"POST"> ? true : false>,
  Assert<"/version" extends PathsWith<"POST"> ? false : true>,
  // Wire quirks: `number` config values come back as strings, nextid as a string.
  Assert<IsEqual<ApiReturns<"/nodes/{node}/qemu/{vmid}/config", "GET">["cpulimit"], number | string | undefined>>,
  Assert<IsEqual<ApiParams<"/nodes/{node}/qemu/{vmid}/config", "PUT">["cpulimit"], number | undefined>>,
  Assert<IsEqual<ApiReturns<"/cluster/nextid", "GET">, number | string>>,
];

describe("generated API types", () => {
  it("declare exactly the paths and methods of the runtime schema", () => {
    const text = readFileSync(new URL("../../src/schema/generated/api-types.ts", import.meta.url), "utf8");
    const declared: string[] = [];
    let path = "";
    for (const line of text.split("\n")) {
      const pathLine = /^ {2}("\/[^"]*"): \{$/.exec(line);
      if (pathLine) path = JSON.parse(pathLine[1] as string) as string;
      const methodLine = /^ {4}(GET|POST|PUT|DELETE): /.exec(line);
      if (methodLine) declared.push(`${methodLine[1] as ApiMethod} ${path}`);
    }
    const runtime = allEndpoints().map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(declared.sort(), runtime.sort());
    const somePath: ApiPath = "/cluster/resources";
    assert.ok(runtime.includes(`GET ${somePath}`));
  });
});
