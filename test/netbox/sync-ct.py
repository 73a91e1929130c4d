# Reads a NetBox record pvectl's sync wrote back for a container, with Debian's
# python3-pynetbox (a client nobody here wrote); prints one JSON object for
# test/netbox/sync-ct.test.ts.
import json
import sys

import pynetbox

url, token, name = sys.argv[1], sys.argv[2], sys.argv[3]
nb = pynetbox.api(url, token=token)
vm = nb.virtualization.virtual_machines.get(name=name)
iface = list(nb.virtualization.interfaces.filter(virtual_machine_id=vm.id))[0]
print(json.dumps({
    "status": vm.status.value,
    "vmid": vm.custom_fields["proxmox_vmid"],
    "mac": iface.mac_address,
    "primary_ip4": vm.primary_ip4.address if vm.primary_ip4 else None,
    "ip_on": nb.ipam.ip_addresses.get(vm.primary_ip4.id).assigned_object_id if vm.primary_ip4 else None,
    "iface_id": iface.id,
}))
