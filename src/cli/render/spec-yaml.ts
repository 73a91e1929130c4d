// YAML that pvectl writes for people and other tools (import, show, access needs). pvectl reads
// YAML 1.2, but many readers (PyYAML, hence Ansible; older Go and Ruby libraries) read YAML 1.1,
// where a plain `02:30` is a number (base 60), `yes`/`on`/`off` are booleans and `0755` is
// octal. Written under the 1.1 schema, every string either reading would take as something else
// is quoted; 1.2's `0o17` octal, which 1.1 does not know, is added so it is quoted too.
import { type ScalarTag, stringify } from "yaml";

const yaml12Octal: ScalarTag = {
  tag: "tag:yaml.org,2002:int",
  default: true,
  test: /^0o[0-7]+$/,
  resolve: (text: string) => Number.parseInt(text.slice(2), 8),
};

/** `value` as YAML whose strings read back as strings under YAML 1.1 and 1.2 alike. */
export function specYaml(value: unknown): string {
  return stringify(value, { version: "1.1", customTags: (tags) => [...tags, yaml12Octal] });
}
