# Drives Ansible's Constructable the way community.general's proxmox inventory plugin does
# (filters on the facts, then compose, groups, keyed_groups per host) for the cases on stdin,
# and prints each case's groups, parent groups and host variables, or its error.
import json, sys
from ansible.inventory.data import InventoryData
from ansible.plugins.inventory import BaseInventoryPlugin, Constructable
from ansible.template import Templar
from ansible.parsing.dataloader import DataLoader

class P(BaseInventoryPlugin, Constructable):
    NAME = "pvectl.test"
    def __init__(self, opts):
        super().__init__()
        self.inventory = InventoryData()
        self.templar = Templar(loader=DataLoader())
        self._o = opts
    def get_option(self, k):
        return self._o.get(k, {"leading_separator": True, "use_extra_vars": False}.get(k))

out = []
for case in json.load(sys.stdin):
    o = case["options"]
    p = P(o)
    strict = o.get("strict", False)
    try:
        for host, props in case["hosts"].items():
            keep = True
            for f in o.get("filters", []):
                try:
                    if not p._compose(f, props):
                        keep = False
                        break
                except Exception as e:
                    if strict:
                        raise
            if not keep:
                continue
            p.inventory.add_host(host)
            for k, v in props.items():
                p.inventory.set_variable(host, k, v)
            variables = p.inventory.get_host(host).get_vars()
            p._set_composite_vars(o.get("compose"), variables, host, strict=strict)
            p._add_host_to_composed_groups(o.get("groups"), variables, host, strict=strict)
            p._add_host_to_keyed_groups(o.get("keyed_groups"), variables, host, strict=strict)
        groups = {g: sorted(h.name for h in grp.hosts) for g, grp in p.inventory.groups.items() if grp.hosts and g not in ("all", "ungrouped")}
        children = {g: sorted(c.name for c in grp.child_groups) for g, grp in p.inventory.groups.items() if grp.child_groups and g not in ("all",)}
        hostvars = {h: {k: v for k, v in hv.vars.items() if k not in ("inventory_file", "inventory_dir")} for h, hv in p.inventory.hosts.items()}
        out.append({"ok": {"groups": groups, "children": children, "hostvars": hostvars}})
    except Exception as e:
        out.append({"error": str(e)})
print(json.dumps(out, default=str))
