/** Every guest pvectl creates carries this tag; with the name it finds guests a spec gives no vmid. */
export const OWNERSHIP_TAG = "pvectl";
