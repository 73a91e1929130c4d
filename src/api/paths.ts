// Paths may be templates (`/nodes/{node}/qemu/{vmid}/config`) whose placeholders are filled
// from the parameters (and then not sent again), or concrete paths used as they are.
import type { ApiParams, PathsWith } from "../schema/index.js";
import { PveError } from "./errors.js";
import type { HttpMethod } from "./transport.js";

/** The params argument of a call to template P: optional when the endpoint has no required parameter. */
export type ParamsArg<P extends PathsWith<M>, M extends HttpMethod> =
  Record<string, never> extends ApiParams<P, M> ? [params?: ApiParams<P, M>] : [params: ApiParams<P, M>];

export interface FilledPath {
  /** Concrete path, each segment percent-encoded. */
  path: string;
  /** What statistics are grouped by: the template when one was given, else the path. */
  template: string;
  /** Parameters left after filling the placeholders. */
  rest: Record<string, unknown>;
}

const PLACEHOLDER = /\{([^}]+)\}/g;

export function fillPath(pathOrTemplate: string, params: Record<string, unknown> | undefined): FilledPath {
  const given = pathOrTemplate.startsWith("/") ? pathOrTemplate : `/${pathOrTemplate}`;
  const rest: Record<string, unknown> = { ...(params ?? {}) };
  if (!given.includes("{")) return { path: given, template: given, rest };
  const path = given.replace(PLACEHOLDER, (_match, name: string) => {
    const value = rest[name];
    if (value === undefined || value === null || value === "") {
      throw new PveError({
        kind: "config",
        message: `the path ${given} needs the parameter '${name}', which was not given`,
        path: given,
      });
    }
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  return { path, template: given, rest };
}
