# VLAN networks on the NetBox simulator's demo data, made with Debian's python3-pynetbox (a
# client nobody here wrote), as a team would enter them: VLANs 10, 20 (the demo's) and 30 with
# a prefix each, gateways recorded two ways (the prefix's custom field; the router's address
# tagged `gateway`), VLAN 40 without a prefix, and records on them. Prints the ids as JSON for
# test/netbox/lab.ts (addVlanNetworks).
import json
import sys

import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
site = nb.dcim.sites.get(slug="lab")
cluster = nb.virtualization.clusters.get(name="pve-lab")
platform = nb.dcim.platforms.get(slug="ubuntu-24-04")

mgmt = nb.ipam.vlans.create(vid=10, name="mgmt", site=site.id)
servers = nb.ipam.vlans.get(vid=20)
storage = nb.ipam.vlans.get(vid=30)
backup = nb.ipam.vlans.create(vid=40, name="backup", site=site.id)

# VLAN 10: the gateway in the prefix's custom field.
nb.ipam.prefixes.create(prefix="10.10.0.0/24", vlan=mgmt.id, custom_fields={"gateway": "10.10.0.1"})
# VLAN 30: the router's address recorded as an IP address tagged `gateway` (not the first address).
storage_prefix = nb.ipam.prefixes.create(prefix="10.30.0.0/24", vlan=storage.id)
tag = nb.extras.tags.create(name="gateway", slug="gateway")
nb.ipam.ip_addresses.create(address="10.30.0.254/24", description="storage router", tags=[tag.id])


def record(name, nics):
    vm = nb.virtualization.virtual_machines.create(
        name=name, status="planned", site=site.id, cluster=cluster.id, platform=platform.id, vcpus=1, memory=1024, disk=10000
    )
    for nic, vlan in nics:
        nb.virtualization.interfaces.create(virtual_machine=vm.id, name=nic, mode="access", untagged_vlan=vlan.id)
    return vm.id


print(json.dumps({
    "vlans": {"10": mgmt.id, "20": servers.id, "30": storage.id, "40": backup.id},
    "storagePrefix": storage_prefix.id,
    # Two NICs on two VLANs: each gets an address of its own VLAN's prefix.
    "twoNics": record("app-01", [("eth0", mgmt), ("eth1", storage)]),
    # On a VLAN without a prefix: refused, nothing built.
    "noPrefix": record("backup-01", [("eth0", backup)]),
}))
