#!/bin/sh
# Writes the server list that deploy/haproxy/haproxy.cfg routes to, on
# standard output:
#
#   deploy/haproxy/servers.sh [--unrouted TAG] [--dns] TAG=HOST:PORT...
#
# TAG is a server's --shard tag (1 to 8 lowercase hex characters, the same
# length for all) and HOST:PORT where the router reaches it. For each server
# it writes a backend shard_<TAG>, checked on GET /_sandbox/ready; the backend
# new_worlds, where POST /_sandbox/worlds goes round robin; and the backend
# unrouted, one server (the first, or --unrouted TAG) for the calls that name
# no server: no credentials (the default world), seeded worlds, unknown tags.
#
# --dns resolves the host names again while HAProxy runs (Kubernetes: a pod's
# address changes when it is made again), with the name servers of
# /etc/resolv.conf. An address may use HAProxy's "${VAR}" expansion, for
# example ${POD_NAMESPACE}; quote it from the shell.
#
# Example (three servers on loopback):
#   deploy/haproxy/servers.sh 01=127.0.0.1:8081 02=127.0.0.1:8082 03=127.0.0.1:8083 > servers.cfg
#   haproxy -f deploy/haproxy/haproxy.cfg -f servers.cfg
set -eu

usage() {
	echo "usage: $0 [--unrouted TAG] [--dns] TAG=HOST:PORT..." >&2
	exit 2
}

unrouted=""
dns=""
while [ $# -gt 0 ]; do
	case "$1" in
	--unrouted) [ $# -ge 2 ] || usage; unrouted="$2"; shift 2 ;;
	--dns) dns=1; shift ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage

# Check every pair first, so that nothing is written from a bad list.
len=""
tags=" "
for pair in "$@"; do
	tag="${pair%%=*}"
	addr="${pair#*=}"
	if [ "$tag" = "$pair" ] || [ -z "$addr" ]; then
		echo "$0: \"$pair\" is not TAG=HOST:PORT" >&2
		exit 2
	fi
	case "$tag" in
	'' | *[!0-9a-f]*)
		echo "$0: tag \"$tag\" must be lowercase hex (0-9, a-f), as --shard takes it" >&2
		exit 2
		;;
	esac
	if [ "${#tag}" -gt 8 ]; then
		echo "$0: tag \"$tag\" is longer than 8 characters" >&2
		exit 2
	fi
	if [ -z "$len" ]; then
		len="${#tag}"
	elif [ "${#tag}" -ne "$len" ]; then
		echo "$0: tag \"$tag\" has ${#tag} characters, the others $len: every tag must have the same length" >&2
		exit 2
	fi
	case "$addr" in
	*\"* | *" "*)
		echo "$0: address \"$addr\" holds a space or a quote" >&2
		exit 2
		;;
	esac
	case "$tags" in
	*" $tag "*)
		echo "$0: tag \"$tag\" is given twice" >&2
		exit 2
		;;
	esac
	tags="$tags$tag "
done
first="${1%%=*}"
[ -n "$unrouted" ] || unrouted="$first"
case "$tags" in
*" $unrouted "*) ;;
*)
	echo "$0: --unrouted $unrouted is not one of the servers" >&2
	exit 2
	;;
esac

resolve=""
[ -z "$dns" ] || resolve=" resolvers dns resolve-prefer ipv4"

echo "# The servers of deploy/haproxy/haproxy.cfg, written by deploy/haproxy/servers.sh:"
echo "#   $*"
echo "# Calls that name no server go to $unrouted."
echo
echo "# The rules read tags of SIGNSANDBOX_SHARD_LEN characters; these have $len."
echo ".if strneq(\"\$SIGNSANDBOX_SHARD_LEN\",\"$len\")"
echo ".alert \"the servers' tags have $len characters: start HAProxy with SIGNSANDBOX_SHARD_LEN=$len\""
echo ".endif"
if [ -n "$dns" ]; then
	echo
	echo "resolvers dns"
	echo "    parse-resolv-conf"
	echo "    hold valid 10s"
	echo "    hold obsolete 30s"
fi
for pair in "$@"; do
	echo
	echo "backend shard_${pair%%=*}"
	echo "    server ${pair%%=*} \"${pair#*=}\" check$resolve"
done
echo
echo "# POST /_sandbox/worlds without a seed: round robin over the servers that are up."
echo "backend new_worlds"
echo "    balance roundrobin"
for pair in "$@"; do
	echo "    server ${pair%%=*} \"${pair#*=}\" track shard_${pair%%=*}/${pair%%=*}$resolve"
done
echo
echo "# Calls that name no server: no credentials, seeded worlds, unknown tags."
echo "backend unrouted"
for pair in "$@"; do
	if [ "${pair%%=*}" = "$unrouted" ]; then
		echo "    server ${pair%%=*} \"${pair#*=}\" track shard_${pair%%=*}/${pair%%=*}$resolve"
	fi
done
