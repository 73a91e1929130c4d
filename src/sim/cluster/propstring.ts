// Property strings as PVE stores them in guest configs ("local-lvm:vm-100-disk-0,size=32G").
// Kept local to the simulator's guest model: the model only needs the generic key=value form,
// printed back in PVE's order (the default key first, then the others sorted).

export type PropertyMap = Map<string, string>;

/** Splits `a,k=v,k2=v2`; a first item without `=` is stored under `defaultKey`. */
export function parseProps(text: string, defaultKey?: string): PropertyMap {
  const out: PropertyMap = new Map();
  if (text === "") return out;
  text.split(",").forEach((item, index) => {
    const eq = item.indexOf("=");
    if (eq < 0) {
      if (index === 0 && defaultKey) out.set(defaultKey, item);
      else out.set(item, "");
      return;
    }
    out.set(item.slice(0, eq), item.slice(eq + 1));
  });
  return out;
}

/** Prints `first` (as a bare value when `bareFirst`), then the remaining keys sorted. */
export function printProps(props: PropertyMap, first?: string, bareFirst = true): string {
  const parts: string[] = [];
  if (first !== undefined && props.has(first)) {
    const value = props.get(first) ?? "";
    parts.push(bareFirst ? value : `${first}=${value}`);
  }
  const rest = [...props.keys()].filter((k) => k !== first).sort();
  for (const key of rest) parts.push(`${key}=${props.get(key) ?? ""}`);
  return parts.join(",");
}
