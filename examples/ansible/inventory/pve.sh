#!/bin/sh
# Ansible's executable inventory: pvectl prints the cluster's guests (PROXMOX_* environment, or
# add --config "$(dirname "$0")/pve.yaml").
exec pvectl inventory "$@"
