# Creates a NetBox record the way an operator's script would, with Debian's python3-pynetbox
# (a client nobody here wrote): a VM of the clone platform with a virtual disk, an interface
# and a primary IPv4 on it; prints the VM's id for test/netbox/sync-clone.test.ts.
import json
import sys

import pynetbox

url, token, name = sys.argv[1], sys.argv[2], sys.argv[3]
nb = pynetbox.api(url, token=token)
cluster = nb.virtualization.clusters.get(name="pve-lab")
platform = nb.dcim.platforms.create(name="Debian clone", slug="debian-clone")
vm = nb.virtualization.virtual_machines.create(
    name=name, status="planned", cluster=cluster.id, platform=platform.id, vcpus=2, memory=2048
)
nb.virtualization.virtual_disks.create(virtual_machine=vm.id, name="root", size=8192)
iface = nb.virtualization.interfaces.create(virtual_machine=vm.id, name="eth0")
ip = nb.ipam.ip_addresses.create(
    address="10.20.0.50/24", assigned_object_type="virtualization.vminterface", assigned_object_id=iface.id
)
vm.primary_ip4 = ip.id
vm.save()
print(json.dumps({"id": vm.id}))
