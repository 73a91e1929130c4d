// A VM's local and mapped resources as QemuMigrate::Helpers::check_local_resources finds them
// (and check_non_migratable_resources for a running VM): what GET …/migrate lists, migrateall
// checks and the migration's prepare step refuses.
import type { GuestConfig } from "../cluster/types.js";

type Row = Record<string, unknown>;

export function option(text: string, key: string): string | undefined {
  return new RegExp(`(?:^|,)${key}=([^,]+)`).exec(text)?.[1];
}

/** check_local_resources (and check_non_migratable_resources for a running VM). */
export function localResources(config: GuestConfig, running: boolean): { local: string[]; mapped: Record<string, Row> } {
  const local: string[] = [];
  const mapped: Record<string, Row> = {};
  if (running) for (const key of ["amd-sev", "intel-tdx"]) if (config[key] !== undefined) local.push(key);
  if (running && Object.keys(config).some((k) => /^virtiofs\d+$/.test(k))) local.push("virtiofs");
  if (config.ivshmem !== undefined) local.push("ivshmem");
  for (const [key, raw] of Object.entries(config)) {
    const value = String(raw);
    if (/^usb\d+$/.test(key)) {
      if (/^spice$/i.test(option(value, "host") ?? "")) continue;
      const name = option(value, "mapping");
      if (name) mapped[key] = { name };
    }
    if (/^hostpci\d+$/.test(key)) {
      const name = option(value, "mapping");
      if (name) {
        mapped[key] = { name };
        if (!running) continue;
      }
    }
    if (/^virtiofs\d+$/.test(key)) mapped[key] = { name: option(value, "dirid") ?? value.split(",")[0] };
    if (/^serial\d+$/.test(key) && value === "socket") continue;
    if (/^(?:usb|hostpci|serial|parallel|virtiofs)\d+$/.test(key)) local.push(key);
  }
  return { local, mapped };
}
