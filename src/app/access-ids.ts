// The ids an access section takes (tokens, users, groups), for a caller to check what it was
// given before it writes a section `pvectl validate` would refuse.
export { REALM_RULE, tokenIdProblem, userIdProblem } from "../pve/auth-id.js";
export { GROUP_ID } from "../sources/spec/access-schema.js";
