// pvectl's library entry point: the pieces other programs can use directly.
export {
  allEndpoints,
  getEndpoint,
  getFormat,
  isCodeFormat,
  matchEndpoint,
  paramSchema,
  pathExists,
} from "./schema/index.js";
export type {
  ApiMethod,
  ApiParams,
  ApiPath,
  ApiReturns,
  EndpointSchema,
  ParamSchema,
  PathsWith,
  PveApi,
  SubSchema,
} from "./schema/index.js";
export * from "./pve/index.js";
