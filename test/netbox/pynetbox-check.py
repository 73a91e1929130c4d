# Drives the NetBox simulator with Debian's python3-pynetbox (a client nobody here wrote)
# and prints one JSON object with what it saw; test/netbox/pynetbox.test.ts asserts on it.
import json
import sys

import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
out = {}

# (pynetbox 7.0 reads `nb.version` from /api/ without its token; NetBox >= 4.0 requires login
# there by default, so that property is not used here.)
out["status_version"] = nb.status()["netbox-version"]

planned = list(nb.virtualization.virtual_machines.filter(status="planned"))
out["planned"] = sorted(vm.name for vm in planned)

vm = nb.virtualization.virtual_machines.get(name="web-01")
out["get_by_name"] = {"id": vm.id, "cluster": vm.cluster.name, "status": vm.status.value, "memory": vm.memory}
same = nb.virtualization.virtual_machines.get(vm.id)
out["get_by_id"] = same.name

vm.status = "staged"
vm.custom_fields["proxmox_vmid"] = 4242
out["save_changed"] = vm.save()
again = nb.virtualization.virtual_machines.get(vm.id)
out["after_save"] = {"status": again.status.value, "vmid": again.custom_fields["proxmox_vmid"]}

iface = nb.virtualization.interfaces.create(virtual_machine=vm.id, name="eth9", mode="access")
out["interface"] = {"name": iface.name, "vm": iface.virtual_machine.id, "mode": iface.mode.value}
mac = nb.dcim.mac_addresses.create(
    mac_address="bc:24:11:00:00:09", assigned_object_type="virtualization.vminterface", assigned_object_id=iface.id
)
iface.primary_mac_address = mac.id
iface.save()
out["interface_mac"] = nb.virtualization.interfaces.get(iface.id).mac_address

prefix = nb.ipam.prefixes.get(prefix="10.20.0.0/24")
free = prefix.available_ips.list()
out["available_first"] = free[0].address if free else None
ip = prefix.available_ips.create({"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface.id})
out["allocated"] = ip.address
out["allocated_on"] = ip.assigned_object_id
# NetBox serialises a content type as a bare "app.model" string.
out["allocated_type"] = ip.assigned_object_type if isinstance(ip.assigned_object_type, str) else repr(ip.assigned_object_type)

# Pagination: more records than one default page (50).
for i in range(60):
    nb.virtualization.virtual_machines.create(name="bulk-%02d" % i, cluster=vm.cluster.id, status="planned")
out["all_count"] = len(list(nb.virtualization.virtual_machines.all()))
out["planned_count"] = len(list(nb.virtualization.virtual_machines.filter(status="planned")))
out["count_call"] = nb.virtualization.virtual_machines.count(status="planned")

try:
    nb.virtualization.virtual_machines.create(name="bad", cluster=9999, vcpus=0)
    out["bad_create"] = "accepted"
except pynetbox.RequestError as e:
    out["bad_create"] = json.loads(e.error)

iface.delete()
out["interface_gone"] = nb.virtualization.interfaces.get(iface.id) is None

print(json.dumps(out))
