// `cloudInit.ipconfigN` configures the VM's NIC netN. With `nics:` in the spec, the spec itself
// must list netN (sources/spec checks it). With `nics:` left out the VM's NICs are not managed,
// and a clone gets its NICs from its source: netN is looked for where the VM's NICs come from
// (the live guest, the clone's source, live or as this plan makes it), and its absence there is
// an error that names the slot and where it looked.
import type { DesiredVm } from "./model.js";

const IPCONFIG = /^ipconfig(\d+)$/;

/**
 * Each ipconfigN of `vm` whose netN is not in `nics`, said as "… but WHERE has no netN".
 * `where` names what was looked at (`vmid 101`, `its clone source base (vmid 9000)`).
 */
export function ipconfigNicErrors(vm: DesiredVm, nics: Record<string, unknown>, where: string, why: string): string[] {
  if (!(vm.unmanaged?.includes("nics") ?? false)) return [];
  return Object.keys(vm.options)
    .flatMap((key) => {
      const n = IPCONFIG.exec(key)?.[1];
      return n !== undefined && !Object.hasOwn(nics, `net${n}`) ? [{ key, nic: `net${n}` }] : [];
    })
    .map(
      ({ key, nic }) =>
        `cloudInit.ipconfig.${key} configures ${nic}, but ${where} has no ${nic} (\`nics:\` is left out, ${why}): add ${nic} under \`nics\`, or drop ${key}`,
    );
}
