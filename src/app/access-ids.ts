// The ids an access section takes (tokens, users, groups), for a caller to check what it was
// given before it writes a section `pvectl validate` would refuse.
export { GROUP_ID_RE, REALM_RULE, tokenIdProblem, userIdProblem } from "../pve/auth-id.js";
