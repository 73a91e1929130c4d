// Segment trie over the API's path templates, so a concrete path such as
// /nodes/pve1/qemu/100/config finds its template in a handful of map lookups.
// Like PVE's router, a literal segment wins over a `{param}` segment; when the literal
// branch cannot match the rest of the path, the parameter branch is tried.

export interface TrieMatch<T> {
  value: T;
  template: string;
  pathParams: Record<string, string>;
}

interface TrieNode<T> {
  literals: Map<string, TrieNode<T>>;
  params: { name: string; node: TrieNode<T> }[];
  value?: T;
  template?: string;
}

function emptyNode<T>(): TrieNode<T> {
  return { literals: new Map(), params: [] };
}

/** "/a/{b}/c/" -> ["a", "{b}", "c"]; undefined for an empty segment ("//"). */
export function splitPath(path: string): string[] | undefined {
  const trimmed = path.replace(/^\/+/, "").replace(/\/+$/, "");
  if (trimmed === "") return [];
  const segments = trimmed.split("/");
  return segments.includes("") ? undefined : segments;
}

export class PathTrie<T> {
  private readonly root: TrieNode<T> = emptyNode();

  insert(template: string, value: T): void {
    const segments = splitPath(template);
    if (!segments) throw new Error(`invalid path template ${template}`);
    let node = this.root;
    for (const segment of segments) {
      const param = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (param !== undefined) {
        let entry = node.params.find((p) => p.name === param);
        if (!entry) {
          entry = { name: param, node: emptyNode() };
          node.params.push(entry);
        }
        node = entry.node;
      } else {
        let next = node.literals.get(segment);
        if (!next) {
          next = emptyNode();
          node.literals.set(segment, next);
        }
        node = next;
      }
    }
    node.value = value;
    node.template = template;
  }

  /** Matches a concrete path (percent-encoded segments are decoded into pathParams). */
  match(concretePath: string): TrieMatch<T> | undefined {
    const segments = splitPath(concretePath);
    if (!segments) return undefined;
    let decoded: string[];
    try {
      decoded = segments.map((s) => decodeURIComponent(s));
    } catch {
      return undefined; // malformed percent-encoding: no such path
    }
    return this.walk(this.root, decoded, 0, {});
  }

  private walk(node: TrieNode<T>, segments: string[], at: number, params: Record<string, string>): TrieMatch<T> | undefined {
    if (at === segments.length) {
      if (node.value === undefined || node.template === undefined) return undefined;
      return { value: node.value, template: node.template, pathParams: params };
    }
    const segment = segments[at] as string;
    const literal = node.literals.get(segment);
    if (literal) {
      const found = this.walk(literal, segments, at + 1, params);
      if (found) return found;
    }
    for (const { name, node: child } of node.params) {
      const found = this.walk(child, segments, at + 1, { ...params, [name]: segment });
      if (found) return found;
    }
    return undefined;
  }
}
